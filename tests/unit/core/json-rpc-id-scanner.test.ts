import { describe, expect, it } from 'vitest';
import { JsonRpcIdScanner, type JsonRpcId } from '../../../src/core/json-rpc-id-scanner.js';

const big = 'x'.repeat(5000);

function scan(text: string, chunk: number): JsonRpcId | undefined {
  const scanner = new JsonRpcIdScanner();
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += chunk) scanner.feed(bytes.subarray(i, i + chunk));
  return scanner.end();
}

describe('JsonRpcIdScanner', () => {
  it.each<[string, string, JsonRpcId | undefined]>([
    ['number id first', `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"a":"${big}"}}`, 7],
    ['id after huge params', `{"jsonrpc":"2.0","method":"tools/call","params":{"a":"${big}"},"id":42}`, 42],
    ['nested id is skipped', `{"params":{"id":99,"arguments":{"id":"no"}},"id":"req-1"}`, 'req-1'],
    ['string id with escapes', `{ "id" : "a\\"b\\\\c" , "method":"x"}`, 'a"b\\c'],
    ['id in a string value is not a key', `{"method":"\\"id\\":5","params":{},"id":6}`, 6],
    ['null id', `{"id":null,"method":"x"}`, null],
    ['negative and whitespace', `{\n  "id" :\t-3 ,"method":"x"}`, -3],
    ['number at the very end (cut off)', `{"method":"x","id":12`, 12],
    ['no id (a notification)', `{"jsonrpc":"2.0","method":"notifications/x","params":{"d":"${big}"}}`, undefined],
    ['a batch has no single id', `[{"id":1},{"id":2}]`, undefined],
    ['an object is no id', `{"id":{"x":1},"method":"x"}`, undefined],
    ['key "id" inside an array value', `{"params":[{"id":3}],"id":4}`, 4],
  ])('%s', (_name, text, expected) => {
    for (const chunk of [1, 3, 64, 1 << 20]) expect(scan(text, chunk)).toEqual(expected);
  });
});
