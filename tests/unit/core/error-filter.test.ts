import { describe, expect, it } from 'vitest';
import { ERROR_LINE_SCAN_CHARS, findErrorLines, isErrorLine, normalizeErrorLine } from '../../../src/core/error-filter.js';

/** The original's tests/test_error_detection.sh cases (U§13.5) and a few more. */
describe('isErrorLine: not an error', () => {
  it.each([
    ['JSON is_error false', '  "is_error": false,'],
    ['JSON error null', '  "error": null,'],
    ['JSON error key with a message', '{"error": "Error: wrapped in JSON"}'],
    ['JSON errors array key', '"errors": ["Error: x"],'],
    ['api_error_status key', '"api_error_status": null'],
    ['prose about errors', 'This document describes the error handling strategy and how errors are reported.'],
    ['prose with "error:" mid-line', 'We fixed the error: it was a typo.'],
    ['TypeScript type annotation', '  error: Error;'],
    ['TypeScript parameter', 'function handle(error: Error): void {'],
    ['git diff adding an error class', '+export class ValidationError extends Error {'],
    ['git diff removing an error class', '-class NotFoundError extends Error {}'],
    ['bare cannot', 'cannot find the file, creating it'],
    ['bare unable', 'unable to reach the cache; continuing'],
    ['failed without the error phrase', 'Tests failed: 2 of 10'],
    ['empty line', ''],
    ['indented Error:', '    Error: inside an indented quote'],
  ])('%s', (_name, line) => {
    expect(isErrorLine(line)).toBe(false);
  });
});

describe('isErrorLine: an error', () => {
  it.each([
    ['Error: at the start', 'Error: Cannot find module "x"'],
    ['ERROR: at the start', 'ERROR: build failed'],
    ['error: at the start', 'error: could not compile `app`'],
    ['bracketed log level', '[2026-01-02 10:00:00]: error connecting to db'],
    ['linker error', 'Link: error LNK2019 unresolved external symbol'],
    ['Error occurred', 'An Error occurred while processing'],
    ['failed with error', 'Process failed with error code 2'],
    ['Exception', 'java.lang.NullPointerException at Main.java:10'],
    ['lowercase exception', 'Unhandled exception in thread main'],
    ['Fatal', 'Fatal: not a git repository'],
    ['FATAL', 'FATAL: out of memory'],
  ])('%s', (_name, line) => {
    expect(isErrorLine(line)).toBe(true);
  });

  it('only looks at the first part of a huge line', () => {
    expect(isErrorLine(`Error: ${'x'.repeat(100_000)}`)).toBe(true);
    expect(isErrorLine(`${'x'.repeat(ERROR_LINE_SCAN_CHARS)} Fatal`)).toBe(false);
  });
});

describe('findErrorLines', () => {
  it('finds the real error in mixed JSON and text', () => {
    const text = ['{"type":"result","is_error": false,', '  "error": null}', 'Running build...', 'Error: Build failed with 3 problems', 'done'].join('\n');
    expect(findErrorLines(text)).toEqual(['Error: Build failed with 3 problems']);
  });

  it('finds nothing in a clean output', () => {
    expect(findErrorLines('All tests passed\n"is_error": false\n')).toEqual([]);
  });

  it('normalizes trailing whitespace and CR', () => {
    expect(findErrorLines('Error: one\r\nERROR: two   \n')).toEqual(['Error: one', 'ERROR: two']);
  });
});

describe('normalizeErrorLine', () => {
  it('drops trailing whitespace and caps the length at 300', () => {
    expect(normalizeErrorLine('Error: x \t\r')).toBe('Error: x');
    expect(normalizeErrorLine(`Error: ${'y'.repeat(1000)}`)).toHaveLength(300);
  });
});
