import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';

/**
 * What `APP_INTERCEPTOR` resolves to with `http.global: false`: lets every request through
 * untouched (the application applies `StoreRoutingInterceptor` itself where it wants it).
 */
export const passThroughInterceptor: NestInterceptor = {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle();
  },
};
