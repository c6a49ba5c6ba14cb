import {
  Controller,
  Get,
  Inject,
  NotFoundException,
  Param,
  Query,
  Res,
  ServiceUnavailableException,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import {
  InjectStore,
  InteractiveQueryService,
  KeyValueStoreFacade,
  RouteByKey,
} from '@nest-streams/nestjs';
import type { OrderStats } from './order-event';
import { requireKey, requireOrdered } from './input-validation';

/** Per-user stats: a key from its owner, a key range from the whole cluster. */
@Controller('stats')
export class StatsController {
  constructor(
    @InjectStore('stats-store') private readonly stats: KeyValueStoreFacade<string, OrderStats>,
    @Inject(InteractiveQueryService) private readonly queries: InteractiveQueryService,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Users with ids in `[from, to]` across every instance, sorted by id. 503 if any part is missing. */
  @Get('range')
  async range(
    @Query('from') from: unknown,
    @Query('to') to: unknown,
    @Res({ passthrough: true }) response: unknown,
  ): Promise<{ userId: string; count: number; sum: number }[]> {
    const lower = requireKey('from', from);
    const upper = requireKey('to', to);
    requireOrdered(lower, upper);
    const result = await this.queries.range<string, OrderStats>('stats-store', lower, upper);
    if (!result.complete) {
      this.adapterHost.httpAdapter.setHeader(response, 'Retry-After', '2');
      throw new ServiceUnavailableException({
        message: 'some partitions did not answer; retry',
        failures: result.failures,
      });
    }
    return result.entries.map(({ key, value }) => ({
      userId: key,
      count: value.count,
      sum: value.sum,
    }));
  }

  /** One user's count and sum, answered by the instance that owns the user (forwarded if needed). */
  @Get(':userId')
  @RouteByKey('stats-store', 'userId')
  async get(@Param('userId') userId: string): Promise<OrderStats> {
    const value = await this.stats.getAsync(requireKey('userId', userId));
    if (value === undefined) throw new NotFoundException(`no stats for user '${userId}'`);
    return { count: value.count, sum: value.sum };
  }
}
