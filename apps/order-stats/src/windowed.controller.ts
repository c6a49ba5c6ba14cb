import { BadRequestException, Controller, Get, Param, Query } from '@nestjs/common';
import { InjectStore, RouteByKey, WindowStoreFacade } from '@nest-streams/nestjs';
import { WINDOW_SIZE_MS } from './order-stats.aggregation';
import { epochMs, requireKey } from './input-validation';

/** 5-minute tumbling window counts per user, from the user's owner. */
@Controller('windowed')
export class WindowedController {
  constructor(
    @InjectStore('windowed-count-store')
    private readonly windows: WindowStoreFacade<string, number>,
  ) {}

  /** Windows starting in `[from, to]` (epoch ms; default the last 5 minutes), oldest first. */
  @Get(':userId')
  @RouteByKey('windowed-count-store', 'userId')
  async get(
    @Param('userId') userId: string,
    @Query('from') from?: unknown,
    @Query('to') to?: unknown,
  ): Promise<{ start: number; end: number; count: number }[]> {
    const key = requireKey('userId', userId);
    const now = Date.now();
    const timeTo = epochMs('to', to, now);
    const timeFrom = epochMs('from', from, timeTo - WINDOW_SIZE_MS);
    if (timeFrom > timeTo)
      throw new BadRequestException(`'from' (${timeFrom}) must not be after 'to' (${timeTo})`);
    const windows = await this.windows.fetchWindowsAsync(key, timeFrom, timeTo);
    return windows.map(({ key: start, value }) => ({
      start,
      end: start + WINDOW_SIZE_MS,
      count: value,
    }));
  }
}
