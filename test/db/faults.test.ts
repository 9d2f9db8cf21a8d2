import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { databaseFault } from '../../src/db/store';
import { databaseFaultError } from '../../src/services/errors';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('databaseFault: the one place storage failures are told apart', () => {
  it('takes lost connections, timeouts and busy databases as unavailable', () => {
    for (const error of [
      coded('57P01', 'terminating connection due to administrator command'),
      coded('57014', 'canceling statement due to statement timeout'),
      coded('08006'),
      coded('57P03'),
      coded('ECONNREFUSED'),
      coded('SQLITE_BUSY'),
      coded('SQLITE_BUSY_SNAPSHOT'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
      new Error('Client has encountered a connection error and is not queryable'),
      // drizzle wraps the driver's error as its cause
      new Error('Failed query: select 1', { cause: new Error('Connection terminated unexpectedly') }),
    ]) {
      assert.equal(databaseFault(error), 'unavailable', error.message);
    }
  });

  it('takes a full disk as full', () => {
    assert.equal(databaseFault(coded('SQLITE_FULL', 'database or disk is full')), 'full');
    assert.equal(databaseFault(new Error('Failed query', { cause: coded('53100', 'could not extend file') })), 'full');
  });

  it('leaves everything else to be a 500', () => {
    for (const error of [coded('23505'), coded('SQLITE_CONSTRAINT_UNIQUE'), new Error('Connection terminated unexpectedly!'), new TypeError('x'), 'text', undefined]) {
      assert.equal(databaseFault(error), undefined);
    }
  });

  it('answers 503 database_unavailable with Retry-After and 507 insufficient_storage', () => {
    const unavailable = databaseFaultError(coded('57P01'));
    assert.equal(unavailable?.code, 'database_unavailable');
    assert.equal(unavailable?.retryAfterSeconds, 5);
    assert.equal(databaseFaultError(coded('SQLITE_FULL'))?.code, 'insufficient_storage');
    assert.equal(databaseFaultError(new Error('bug')), undefined);
  });
});
