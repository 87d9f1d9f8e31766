import { describe, expect, it } from 'vitest';
import { createFaultLog, databaseFaultOf } from './database-faults';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('databaseFaultOf', () => {
  it('calls the database unavailable for a refused, reset or terminated connection', () => {
    expect(databaseFaultOf(withCode('ECONNREFUSED'))).toBe('unavailable');
    expect(databaseFaultOf(withCode('ECONNRESET'))).toBe('unavailable');
    expect(databaseFaultOf(withCode('57P01', 'terminating connection due to administrator command'))).toBe('unavailable');
    expect(databaseFaultOf(withCode('57P03', 'the database system is starting up'))).toBe('unavailable');
    expect(databaseFaultOf(withCode('08006'))).toBe('unavailable');
    expect(databaseFaultOf(new Error('Connection terminated unexpectedly'))).toBe('unavailable');
    expect(databaseFaultOf(new Error('timeout exceeded when trying to connect'))).toBe('unavailable');
    expect(databaseFaultOf(withCode('SQLITE_BUSY'))).toBe('unavailable');
  });

  it('finds the cause in a cause chain and in an AggregateError (a connect to several addresses)', () => {
    expect(databaseFaultOf(new Error('query failed', { cause: withCode('ECONNREFUSED') }))).toBe('unavailable');
    expect(databaseFaultOf(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]))).toBe('unavailable');
  });

  it('calls a full disk a full disk, on both databases', () => {
    expect(databaseFaultOf(withCode('SQLITE_FULL', 'database or disk is full'))).toBe('disk-full');
    expect(databaseFaultOf(withCode('53100', 'could not extend file'))).toBe('disk-full');
  });

  it('leaves every other error alone: bugs and constraint violations stay what they are', () => {
    expect(databaseFaultOf(new TypeError('x is undefined'))).toBeUndefined();
    expect(databaseFaultOf(withCode('23505'))).toBeUndefined();
    expect(databaseFaultOf(withCode('SQLITE_CONSTRAINT_UNIQUE'))).toBeUndefined();
    expect(databaseFaultOf(withCode('42P01', 'relation does not exist'))).toBeUndefined();
    expect(databaseFaultOf('a string')).toBeUndefined();
  });
});

describe('createFaultLog', () => {
  it('logs a fault when it starts and then at most once a minute, with the answers between', () => {
    const lines: Array<{ level: string; detail: object }> = [];
    const log = {
      warn: (detail: object) => lines.push({ level: 'warn', detail }),
      error: (detail: object) => lines.push({ level: 'error', detail }),
    };
    let at = 0;
    const logFault = createFaultLog(log, () => at);
    for (let n = 0; n < 300; n += 1) logFault('unavailable', new Error('down'));
    logFault('disk-full', new Error('full'));
    expect(lines.map((line) => line.level)).toEqual(['warn', 'error']);
    at = 61_000;
    logFault('unavailable', new Error('down'));
    expect(lines).toHaveLength(3);
    expect(lines[2]!.detail).toMatchObject({ fault: 'unavailable', answersSinceLastLine: 299 });
  });
});
