import { Catch, type ExceptionFilter } from '@nestjs/common';

/** An error class nothing throws: what the disabled filter catches. */
class NeverThrown extends Error {}

/**
 * What `APP_FILTER` resolves to with `http.global: false`: catches nothing, so every error goes
 * on to the application's filters and Nest's own handling.
 */
@Catch(NeverThrown)
class DisabledExceptionFilter implements ExceptionFilter<NeverThrown> {
  catch(error: NeverThrown): never {
    throw error;
  }
}

/** The one instance of the disabled filter. */
export const disabledExceptionFilter: ExceptionFilter = new DisabledExceptionFilter();
