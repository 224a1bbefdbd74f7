import { excerpt } from '../contract/openapi';
import { parseJson, type Exchange } from '../contract/exchange';
import { unless, type Check } from './check';

/**
 * Internals an answer must not carry (ORD-ERR-010): stack traces, a database's error text, a framework's debug page.
 * They tell an attacker the stack, its files and its queries, and a client can do nothing with them (CWE-209). The
 * markers are data, one table, each with the stack that writes it; each is specific enough that no error message a
 * service writes for its client carries it (a word such as "Exception" alone is no marker: a service may say it).
 */
export interface LeakMarker {
  /** What it is, as a finding names it: "a Python traceback". */
  what: string;
  /** The stack that writes it. */
  stack: string;
  pattern: RegExp;
}

export const LEAK_MARKERS: readonly LeakMarker[] = [
  // Stack traces.
  { what: 'a Python traceback', stack: 'Python', pattern: /Traceback \(most recent call last\)/ },
  { what: 'a Python stack frame', stack: 'Python', pattern: /File "[^"\n]{1,300}\.py", line \d+/ },
  // "at handler (/app/routes/orders.js:12:5)", "at /app/server.js:3:9", "at node:internal/…:1:2", also after Express's "&nbsp; &nbsp;".
  { what: 'a V8 stack frame', stack: 'Node.js', pattern: /\bat (?:async )?(?:[^\s()]{1,200} (?:\[as [^\]\s]{1,100}\] )?)?\(?(?:\/|[A-Za-z]:\\|node:|file:\/\/)[^\s()]{0,300}:\d+:\d+\)?/ },
  { what: 'a V8 stack frame of an anonymous function', stack: 'Node.js', pattern: /\bat Object\.<anonymous> \(/ },
  { what: 'a Java stack frame', stack: 'Java (JVM)', pattern: /\bat [\w$]+(?:\.[\w$<>]+)+\((?:[\w$]+\.(?:java|kt|scala|groovy):\d+|Native Method|Unknown Source)\)/ },
  { what: 'a Java exception class', stack: 'Java (JVM)', pattern: /\b(?:java|javax|jakarta)\.[a-z]+(?:\.[a-z]\w*)*\.[A-Z]\w*(?:Exception|Error)\b/ },
  { what: 'a .NET stack frame', stack: '.NET', pattern: /\bat [\w.`<>]+\([^()\n]{0,300}\) in [^\n]{1,300}:line \d+/ },
  { what: 'a .NET exception class', stack: '.NET', pattern: /\bSystem\.(?:[A-Z]\w*\.)*[A-Z]\w*Exception\b/ },
  { what: 'a PHP stack trace', stack: 'PHP', pattern: /Stack trace:\s*#0 / },
  { what: 'a PHP error with its file and line', stack: 'PHP', pattern: /\.php(?::\d+\b| on line (?:<b>)?\d+)/ },
  { what: 'a Ruby stack frame', stack: 'Ruby', pattern: /\.rb:\d+:in [`'‘]/ },
  { what: 'a Go panic', stack: 'Go', pattern: /goroutine \d+ \[running\]:|panic: runtime error: / },
  { what: 'a Rust panic', stack: 'Rust', pattern: /thread '[^'\n]{0,100}' panicked at / },
  { what: 'a source file of the server named by its path', stack: 'any (a container or a host path)', pattern: /(?:^|[\s"'(=:])\/(?:app|srv|usr\/src\/app|var\/www|home\/[\w.-]+|opt\/[\w.-]+)\/[\w./@-]{1,300}\.(?:js|mjs|cjs|ts|py|rb|php|java|go|cs|kt|scala)\b/ },
  // Databases.
  { what: 'an SQLSTATE code', stack: 'SQL (PDO, JDBC, ODBC)', pattern: /\bSQLSTATE\b/ },
  { what: "PostgreSQL's syntax error", stack: 'PostgreSQL', pattern: /syntax error at or near "/ },
  { what: "PostgreSQL's error text", stack: 'PostgreSQL', pattern: /invalid input syntax for (?:type )?\w+|invalid byte sequence for encoding "|duplicate key value violates unique constraint "|relation "[^"\n]{1,200}" does not exist|\bPSQLException\b|\bpsycopg2?\.errors\b/ },
  { what: "MySQL's error text", stack: 'MySQL, MariaDB', pattern: /You have an error in your SQL syntax|\bER_(?:DUP_ENTRY|PARSE_ERROR|NO_SUCH_TABLE|BAD_FIELD_ERROR|TRUNCATED_WRONG_VALUE\w*|DATA_TOO_LONG|WARN_DATA_OUT_OF_RANGE)\b|Incorrect integer value: '/ },
  { what: "SQLite's error code", stack: 'SQLite', pattern: /\bSQLITE_[A-Z]{4,}\b|\bsqlite3\.(?:Operational|Integrity|Programming)Error\b/ },
  { what: 'an Oracle error code', stack: 'Oracle', pattern: /\bORA-\d{5}\b/ },
  { what: "SQL Server's error text", stack: 'SQL Server', pattern: /Unclosed quotation mark after the character string|Incorrect syntax near '|\bSqlException\b/ },
  { what: "an ORM's error class", stack: 'Sequelize, TypeORM, Prisma, ActiveRecord, Laravel', pattern: /\bSequelize(?:Database|Validation|UniqueConstraint)Error\b|\bQueryFailedError\b|\bPrismaClient(?:Known|Unknown)RequestError\b|\bActiveRecord::(?:StatementInvalid|RecordNotFound)\b|Illuminate\\{1,2}Database\\{1,2}QueryException/ },
  // Debug pages.
  { what: "Django's debug page", stack: 'Django', pattern: /You(?:'|&#x27;|&#39;|’)re seeing this error because you have <code>DEBUG = True<\/code>/ },
  { what: "Werkzeug's debugger", stack: 'Flask (Werkzeug)', pattern: /Werkzeug Debugger|The debugger caught an exception in your WSGI application/ },
  { what: "Rails' exception page", stack: 'Ruby on Rails', pattern: /Action Controller: Exception caught/ },
  { what: "Whoops' error page", stack: 'PHP (Laravel, Whoops)', pattern: /Whoops! There was an error\./ },
  { what: "ASP.NET's error page", stack: 'ASP.NET', pattern: /Server Error in '[^'\n]{0,200}' Application\./ },
];

/** Every marker in one expression: most answers carry none, and one search tells. */
const ANY_MARKER = new RegExp(LEAK_MARKERS.map(({ pattern }) => `(?:${pattern.source})`).join('|'));

/** How much of an answer is searched: a debug page puts its marker in its first pages; a body of megabytes is not read to the end. */
const SEARCHED_CHARACTERS = 256 * 1024;

/** A marker found in an answer: which, where (a JSON pointer into the body, or the body), and the text it matched. */
export interface Leak {
  marker: LeakMarker;
  /** A JSON pointer to the string that holds it ('' the root), or undefined for a body that is not JSON. */
  pointer?: string;
  text: string;
}

/**
 * The answers the service writes in its own words: an error (4xx, 5xx), or an answer that is not JSON (a debug page
 * served with 200). A 2xx JSON answer, whatever its label, is data: the orders of the account, another user's on a
 * shared one, echoed.
 */
export function writtenInOwnWords(exchange: Exchange): boolean {
  return exchange.text !== '' && (exchange.status >= 400 || exchange.json === undefined);
}

/** Echoed text this long or longer is taken out of an answer before it is searched: a marker may not run from the client's words into the service's. */
const BLANKED_ECHO = 6;

/**
 * The markers an answer carries that the request did not: each string of a JSON body searched apart (a marker named
 * by its pointer), a body that is not JSON searched whole. What the request itself carried (its path, each segment
 * and query value decoded, its body, the strings of its JSON) is the client's own words: taken out of the answer
 * before the search, and a marker that lies within one of them is never a leak.
 */
export function leaksIn(exchange: Exchange): Leak[] {
  if (!ANY_MARKER.test(exchange.text.slice(0, SEARCHED_CHARACTERS)) && !(exchange.json !== undefined && ANY_MARKER.test(stringsOf(exchange.json).map(({ text }) => text).join('\n')))) return [];
  const carried = requestTexts(exchange.request);
  const blanked = carried.filter((sent) => sent.length >= BLANKED_ECHO).sort((a, b) => b.length - a.length);
  const ownWords = (text: string) => blanked.reduce((rest, sent) => rest.split(sent).join('\u0000'), text);
  const places = exchange.json === undefined ? [{ pointer: undefined, text: exchange.text.slice(0, SEARCHED_CHARACTERS) }] : stringsOf(exchange.json);
  return places.flatMap(({ pointer, text }) => {
    const own = ownWords(text);
    return LEAK_MARKERS.flatMap((marker) => {
      const found = marker.pattern.exec(own)?.[0];
      return found !== undefined && !carried.some((sent) => sent.includes(found)) ? [{ marker, pointer, text: found }] : [];
    });
  });
}

/** Each string of a JSON value with its pointer, the first SEARCHED_CHARACTERS of text in all. */
function stringsOf(value: unknown): Array<{ pointer: string; text: string }> {
  const found: Array<{ pointer: string; text: string }> = [];
  let budget = SEARCHED_CHARACTERS;
  const walk = (at: unknown, pointer: string) => {
    if (budget <= 0) return;
    if (typeof at === 'string') {
      found.push({ pointer, text: at.slice(0, budget) });
      budget -= at.length;
    } else if (Array.isArray(at)) at.forEach((inner, index) => walk(inner, `${pointer}/${index}`));
    else if (at !== null && typeof at === 'object') for (const [key, inner] of Object.entries(at)) walk(inner, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  };
  walk(value, '');
  return found;
}

/** What the request carried, as an answer may echo it: the path, it and each of its segments and query values decoded, the body as sent and the strings of its JSON. */
function requestTexts(request: Exchange['request']): string[] {
  const decoded = (text: string) => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      return text;
    }
  };
  const [path, query = ''] = request.path.split('?');
  const parts = [...path.split('/'), ...query.split('&').flatMap((pair) => pair.split('='))].filter((part) => part !== '').map(decoded);
  const body = request.body ?? '';
  const json = parseJson(body);
  return [request.path, decoded(request.path), ...parts, body, ...(json === undefined ? [] : stringsOf(json).map(({ text }) => text))].filter((text) => text !== '');
}

/** Where a leak is, in words: the field of the body, or the body. */
function placeOf({ pointer }: Leak): string {
  return pointer === undefined ? 'the body' : pointer === '' ? 'the body (a JSON string)' : pointer;
}

/** ORD-ERR-010: an answer the service writes in its own words carries no internals; the finding names each marker, its stack and where it is. */
export const noInternalsLeaked: Check = (exchange) => {
  if (!writtenInOwnWords(exchange)) return undefined;
  const leaks = leaksIn(exchange);
  return unless('ORD-ERR-010', leaks.length === 0, () => ({
    expected: 'an answer without internals: no stack trace, no database error text, no debug page (a client can act on none of it, an attacker on all of it)',
    received: leaks
      .slice(0, 6)
      .map((leak) => `${leak.marker.what} (${leak.marker.stack}) at ${placeOf(leak)}: ${excerpt(leak.text)}`)
      .join('; ') + (leaks.length > 6 ? `; and ${leaks.length - 6} more` : ''),
    exchange,
    fieldsAtFault: [...new Set(leaks.flatMap(({ pointer }) => (pointer === undefined ? [] : [pointer])))],
  }), exchange);
};
