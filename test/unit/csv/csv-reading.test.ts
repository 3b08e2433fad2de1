import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCsvDate, parseCsvTime } from '../../../src/domain/csv/csv-dates.ts';
import { CsvFileError, readCsvFile } from '../../../src/domain/csv/csv-file.ts';

const LIMITS = { maxBytes: 1024 * 1024, maxRows: 100 };

describe('CSV dates and times (140 §7.4)', () => {
  test('every accepted form', () => {
    const cases: [string, string, string?][] = [
      ['2027-04-12', '2027-04-12'], ['2027/04/12', '2027-04-12'], ['2027-04-12 19:30', '2027-04-12', '19:30:00'], ['2027-04-12T19:30:00', '2027-04-12', '19:30:00'],
      ['04/12/2027', '2027-04-12'], ['4/12/27', '2027-04-12'], ['12-04-2027', '2027-04-12'], ['12.04.2027', '2027-04-12'],
      ['April 12, 2027', '2027-04-12'], ['12 April 2027', '2027-04-12'], ['Apr 12 2027', '2027-04-12'], ['1/2/75', '1975-01-02'],
    ];
    for (const [raw, date, time] of cases) assert.deepEqual(parseCsvDate(raw), time ? { date, time } : { date }, raw);
    assert.deepEqual(parseCsvDate('04/12/2027', 'dmy'), { date: '2027-12-04' });
    for (const [raw, time] of [['19:30', '19:30:00'], ['19:30:00', '19:30:00'], ['7:30 pm', '19:30:00'], ['7:30PM', '19:30:00'], ['7pm', '19:00:00'], ['12:00 am', '00:00:00'], ['12:15 pm', '12:15:00']]) {
      assert.equal(parseCsvTime(raw), time, raw);
    }
  });

  test('what none of them reads is refused', () => {
    for (const raw of ['2027-13-45', '31/31/2027', 'soon', '2027-02-29', 'Smarch 3, 2027']) assert.equal(parseCsvDate(raw), null, raw);
    for (const raw of ['25:00', '13pm', '7', 'noon']) assert.equal(parseCsvTime(raw), null, raw);
  });
});

describe('reading a CSV file (140 §7.2)', () => {
  test('BOM, separator, CR line ends, quoted line breaks, positions', () => {
    const file = readCsvFile(Buffer.from('\uFEFF\rtitle\tstart_date\t"Event Time Zone"\r"A\rB"\t2027-01-01\tUTC\r\r\t\t\rC\t2027-01-02\t\r'), 'events', LIMITS);
    assert.equal(file.bom, true);
    assert.equal(file.separator, '\t');
    assert.deepEqual(file.rows.map((row) => [row.line, row.row, row.cells.get('title')]), [[3, 2, 'A\nB'], [7, 5, 'C']]);
    assert.equal(file.rows[1].cells.has('timezone'), false, 'an empty cell gives no value');
  });

  test('Windows-1252 bytes are decoded as such, with a warning', () => {
    const file = readCsvFile(Buffer.concat([Buffer.from('Event Name,Event Start Date\nCaf'), Buffer.from([0xe9, 0x20, 0x80]), Buffer.from(',2027-01-01\n')]), 'events', LIMITS);
    assert.equal(file.encoding, 'windows-1252');
    assert.equal(file.rows[0].cells.get('title'), 'Café €');
    assert.ok(file.warnings.includes('decoded-windows-1252'));
  });

  test('headers: TEC labels, keys and API names alike; unknown ones warned; duplicates and missing ones refused', () => {
    const file = readCsvFile(Buffer.from('EVENT_NAME;event-start-date;Colour\nX;2027-01-01;red\n'), 'events', LIMITS);
    assert.deepEqual(file.columns, { mapped: { EVENT_NAME: 'title', 'event-start-date': 'start_date' }, ignored: ['Colour'] });
    assert.ok(file.warnings.includes('unknown-column: Colour'));
    assert.throws(() => readCsvFile(Buffer.from('title,Event Name,start_date\n'), 'events', LIMITS), (error: CsvFileError) => error.reason === 'duplicate-column');
    assert.throws(() => readCsvFile(Buffer.from('Venue Name,City\n'), 'events', LIMITS), (error: CsvFileError) => error.reason === 'missing-column');
    assert.throws(() => readCsvFile(Buffer.from('\n \n'), 'events', LIMITS), (error: CsvFileError) => error.reason === 'empty');
  });
});
