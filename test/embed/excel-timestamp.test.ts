import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import parseExcelTimestamp from '../../src/embed/reader/excel-timestamp';

describe('Excel serials in the importer', () => {
  const cases: [number, boolean, string][] = [
    [25569 + Date.UTC(2025, 2, 4, 9, 30) / 86_400_000, false, '2025-03-04T09:30:00.000Z'],
    [45722 + (17 * 3600 + 45 * 60 + 30.25) / 86_400, false, '2025-03-06T17:45:30.250Z'],
    [45722, false, '2025-03-06T00:00:00.000Z'],
    [9.5 / 24, false, '1899-12-30T09:30:00.000Z'],
    [1, false, '1900-01-01T00:00:00.000Z'],
    [59, false, '1900-02-28T00:00:00.000Z'],
    [61, false, '1900-03-01T00:00:00.000Z'],
    [44258, true, '2025-03-04T00:00:00.000Z'],
  ];
  for (const [serial, epoch1904, iso] of cases) {
    it(`${serial}${epoch1904 ? ' (1904)' : ''} is ${iso}, to the millisecond`, () => {
      assert.equal(new Date(parseExcelTimestamp(serial, epoch1904)).toISOString(), iso);
    });
  }
});
