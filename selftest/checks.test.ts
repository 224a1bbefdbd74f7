import { requirement } from '../requirements/catalogue';
import { expect, test } from '@playwright/test';
import { pathVariantWithheld } from '../checks/auth';
import { fullFormTimestampsCarryOffset, promisedFieldsPresent, responseChecks, responseRequirements, summaryTimestampsCarryOffset } from '../checks/body';
import { lenientBodyAnswered, oversizedRefusalsLeftOrder, readBackAfterLenientBody } from '../checks/invalid-input';
import { goneFromList, writeAfterDeleteAnswered } from '../checks/deletion';
import { otherAccountCannotList } from '../checks/isolation';
import { listedAfterCreate, readPage, searchOfPage, type ListSearch } from '../checks/listing';
import { updateVisibleOnGet } from '../checks/orders';
import { differences } from '../checks/roundtrip';
import { CHECKED_ON_ANNOTATION } from '../harness/record/checked-on';
import { judged, REACHED_ANNOTATION } from '../harness/record/findings';
import { violationIn, type Judgement } from '../checks/check';
import type { Exchange } from '../contract/exchange';
import { LEAK_MARKERS, noInternalsLeaked } from '../checks/leaks';
import { allowProblem, undefinedMethodAnswered } from '../checks/methods';
import { undefinedMethods } from '../contract/operations';

/** Judgements of checks/ on made-up answers: what they count, and where they refuse to conclude. */

function answer(operationId: Exchange['operationId'], status: number, json: unknown): Exchange {
  return {
    operationId,
    request: { method: 'GET', url: 'http://127.0.0.1/', path: '/', headers: {} },
    status,
    headers: { 'content-type': 'application/json' },
    text: JSON.stringify(json),
    json,
    retries: 0,
  };
}

test('a judgement counts as checked on the responses it names, never on those the test only passed through', () => {
  // A create that set the order up, then the update and the get that show it: only the last two are judged.
  answer('createOrder', 201, { id: 'a' });
  const judgement = updateVisibleOnGet({ note: 'n' }, answer('getOrder', 200, { id: 'a', note: 'n' }), 'the order', answer('updateOrder', 200, { id: 'a', note: 'n' })) as Judgement;
  expect(judgement.on.map((exchange) => exchange.operationId)).toEqual(['updateOrder', 'getOrder']);
  judged(judgement);
  const cells = test.info().annotations.filter((a) => a.type === CHECKED_ON_ANNOTATION).map((a) => a.description);
  expect(cells.sort()).toEqual(['ORD-UPDATE-003 getOrder/2xx', 'ORD-UPDATE-003 updateOrder/2xx']);
});

test('a check records nothing: the requirement reached, the responses judged and the finding are in what it returns', () => {
  const judgement = updateVisibleOnGet({ note: 'n' }, answer('getOrder', 200, { id: 'a', note: 'other' }), 'the order') as Judgement;
  expect(test.info().annotations).toEqual([]);
  expect(test.info().attachments).toEqual([]);
  expect(judgement.requirementId).toBe('ORD-UPDATE-003');
  expect(judgement.on.map((exchange) => exchange.operationId)).toEqual(['getOrder']);
  expect(judgement.finding?.received).toContain('/note');
});

test('an order not found by a search that could not read the whole list gets no verdict; read whole, its absence is judged', () => {
  const page = readPage({ page: 1, limit: 100 }, answer('listOrders', 200, { data: [{ id: 'other' }], meta: { total: 5000 } }));
  const bounded: ListSearch = { found: new Map(), searched: [page.exchange], complete: false };
  expect([listedAfterCreate('mine', bounded), goneFromList('mine', bounded), otherAccountCannotList('order mine', 'account B', bounded, 'mine')]).toEqual([undefined, undefined, undefined]);
  expect(test.info().annotations.filter((a) => a.type === REACHED_ANNOTATION)).toEqual([]);
  // One page holding the whole list is a complete search: the order is absent from it.
  const whole = searchOfPage(readPage({ page: 1, limit: 100 }, answer('listOrders', 200, { data: [{ id: 'other' }], meta: { total: 1 } })));
  expect(whole.complete).toBe(true);
  expect(violationIn(listedAfterCreate('mine', whole))?.requirementId).toBe('ORD-LIST-008');
  expect(violationIn(goneFromList('mine', whole))).toBeUndefined();
});

test('the fields the full form promises are judged wherever it shows their object, not where it shows none or an empty one', () => {
  const order = (extra: object) => answer('getOrder', 200, { id: 'a', customer: { id: 'c', tax_office: '', name: 'Ada' }, items: [{ id: 'i', total: 2 }], ...extra });
  expect(violationIn(promisedFieldsPresent(order({ payment: { method: 'card', type: 'sale' } })))).toBeUndefined();
  // A payment never sent, or sent as {}, may come back absent, null or empty (ORD-OBS-011): nothing to carry a type.
  for (const payment of [undefined, null, {}, { method: '', status: '' }]) expect(violationIn(promisedFieldsPresent(order({ payment })))).toBeUndefined();
  expect(violationIn(promisedFieldsPresent(order({ payment: { method: 'card' } })))?.received).toContain('payment.type');
  expect(violationIn(promisedFieldsPresent(answer('createOrder', 201, { id: 'a', customer: { id: 'c', name: 'Ada' }, items: [{ id: 'i' }] })))?.received).toBe(
    'missing: customer.tax_office (section 2.3), items[0].total (section 2.4)',
  );
});

test('a date-time the service writes without an offset is judged; one the client sent, or a live deleted_at that is no date-time, is not', () => {
  const order = (extra: object) => answer('getOrder', 200, { id: 'a', created_at: '2026-11-24T03:22:10.123Z', updated_at: '2026-11-24T06:22:10+03:00', deleted_at: null, ...extra });
  expect(violationIn(fullFormTimestampsCarryOffset(order({})))).toBeUndefined();
  expect(violationIn(fullFormTimestampsCarryOffset(order({ deleted_at: '', placed_at: '2026-11-24T03:22:10' })))).toBeUndefined();
  // The zero time of .NET (DateTime.MinValue) or Python (datetime.min) for "not deleted" is no instant either way.
  expect(violationIn(fullFormTimestampsCarryOffset(order({ deleted_at: '0001-01-01T00:00:00' })))).toBeUndefined();
  expect(violationIn(fullFormTimestampsCarryOffset(order({ updated_at: '2026-11-24T03:22:10.123456' })))?.received).toBe('no offset: updated_at "2026-11-24T03:22:10.123456"');
  expect(violationIn(summaryTimestampsCarryOffset(answer('listOrders', 200, { data: [{ id: 'a', created_at: '2026-11-24T03:22:10', updated_at: '2026-11-24T03:22:10Z' }] })))?.received).toBe(
    'no offset: data[0].created_at "2026-11-24T03:22:10"',
  );
});

test('an object or array sent empty may come back absent, null or empty (an object with what the service adds too), not as another type', () => {
  for (const received of [{}, { payment: null }, { payment: {} }, { payment: { method: '' } }, { payment: { type: 'sale' } }]) expect(differences({ payment: {} }, received)).toEqual([]);
  expect(differences({ items: [] }, {})).toEqual([]);
  expect(differences({ payment: {} }, { payment: 'none' })).toEqual([{ pointer: '/payment', sent: {}, received: 'none' }]);
  expect(differences({ items: [] }, { items: [{ name: 'kept' }] })).toEqual([{ pointer: '/items (length)', sent: 0, received: 1 }]);
});

test('a write after a delete: refused in range, or accepted where it leaves the order deleted; never a 5xx', () => {
  const statuses = (write: 'update' | 'delete', soft: boolean) =>
    [200, 204, 400, 401, 403, 404, 409, 410, 422, 500].filter((status) => violationIn(writeAfterDeleteAnswered(write, soft, answer(write === 'update' ? 'updateOrder' : 'deleteOrder', status, {}))) === undefined);
  expect(statuses('update', false)).toEqual([400, 403, 404, 409, 410, 422]);
  expect(statuses('update', true)).toEqual([200, 204, 400, 403, 404, 409, 410, 422]);
  expect(statuses('delete', false)).toEqual([200, 204, 400, 403, 404, 409, 410, 422]);
});

test('a path spelled with a trailing slash, without credentials: any refusal, or a 2xx without JSON, passes; counted for the operation it spells', () => {
  const withheld = pathVariantWithheld('listOrders', 'GET /orders/');
  const page = (status: number, json: unknown) => ({ ...answer(undefined, status, json), text: json === undefined ? '<html></html>' : JSON.stringify(json) });
  const judgements = [...[401, 404, 308].map((status) => withheld(page(status, { meta: {} }))), withheld(page(200, undefined))] as Judgement[];
  expect(judgements.map(violationIn)).toEqual([undefined, undefined, undefined, undefined]);
  const refusal = withheld(page(200, { data: [] }));
  expect(violationIn(refusal)?.requirementId).toBe('ORD-AUTH-007');
  judged([...judgements, refusal as Judgement]);
  const cells = test.info().annotations.filter((a) => a.type === CHECKED_ON_ANNOTATION).map((a) => a.description);
  expect([...new Set(cells)].sort()).toEqual(['ORD-AUTH-007 listOrders/2xx', 'ORD-AUTH-007 listOrders/3xx', 'ORD-AUTH-007 listOrders/4xx']);
});

test('a list page without data, or with data null, is no list envelope, past the last page too; its summaries are judged apart', () => {
  const failed = (json: unknown) => responseChecks(answer('listOrders', 200, json)).flatMap((judgement) => (judgement?.finding ? [judgement.requirementId] : []));
  const meta = { status: 200, message: 'ok', total: 0 };
  expect(failed({ success: true, meta, data: [] })).toEqual([]);
  expect(failed({ success: true, meta })).toEqual(['ORD-LIST-001']);
  expect(failed({ success: true, meta, data: null })).toEqual(['ORD-LIST-001']);
  // A summary at fault is ORD-FORM-002's alone.
  expect(failed({ success: true, meta: { ...meta, total: 1 }, data: [{ id: 7 }] })).toEqual(['ORD-FORM-002']);
});

/** What responseChecks fails of an answer: each failed requirement with its level. */
const failedBy = (exchange: Exchange) => responseChecks(exchange).flatMap((judgement) => (judgement?.finding ? [`${judgement.requirementId} ${requirement(judgement.requirementId).level}`] : []));

test("the refusal of a request larger than any order needs: its body, whoever wrote it (nginx's page, gunicorn's, the service's own HTML), is judged by no response check; a smaller one's is ORD-GEN-001's and ORD-ERR-001's", () => {
  const page = '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body></body></html>\r\n';
  const refusal = (body: string, headers: Record<string, string> = { 'content-type': 'text/html', server: 'nginx/1.25.3' }, text = page): Exchange => ({
    ...answer('createOrder', 413, undefined),
    request: { method: 'POST', url: 'http://127.0.0.1/orders', path: '/orders', headers: { 'Content-Type': 'application/json' }, body },
    headers,
    text,
  });
  const large = 'x'.repeat(2 * 1024 * 1024);
  const express = '<!DOCTYPE html><html><head><title>Error</title></head><body><pre>PayloadTooLargeError</pre></body></html>';
  for (const oversized of [refusal(large), refusal(large, { 'content-type': 'text/html; charset=utf-8' }, express), refusal(large, { 'content-type': 'text/plain' }, 'too large'), refusal(large, {}, '')]) {
    expect(responseRequirements(oversized)).toEqual([]);
    expect(failedBy(oversized)).toEqual([]);
  }
  // The same page for a request of an order's size is an answer the document defines: JSON and the envelope are asked of it.
  expect(responseRequirements(refusal('{"note":"small"}'))).toEqual(expect.arrayContaining(['ORD-GEN-001', 'ORD-ERR-001']));
  expect(failedBy(refusal('{"note":"small"}'))).toEqual(['ORD-GEN-001 MUST', 'ORD-ERR-001 SHOULD']);
});

test("headers larger than any order needs: nginx's 400 page, gunicorn's, Node's own bare 431 and the service's text/plain 400 fail no response check; the same answers to a request of an order's size do", () => {
  const headed = (status: number, headers: Record<string, string>, text: string, padding = 32 * 1024): Exchange => ({
    ...answer('createOrder', status, undefined),
    request: { method: 'POST', url: 'http://127.0.0.1/orders', path: '/orders', headers: { 'Content-Type': 'application/json', 'X-Padding': 'x'.repeat(padding) }, body: '{}' },
    headers,
    text,
  });
  const gunicorn = "<html><head><title>Bad Request</title></head><body><h1><p>Bad Request</p></h1>Error parsing headers: 'limit request headers fields size'</body></html>";
  const answers: Array<[number, Record<string, string>, string]> = [
    [400, { 'content-type': 'text/html', server: 'nginx' }, '<html>\r\n<head><title>400 Request Header Or Cookie Too Large</title></head>\r\n</html>\r\n'],
    [400, { 'content-type': 'text/html' }, gunicorn],
    [431, {}, ''],
    [400, { 'content-type': 'text/plain' }, 'Bad Request: header too large'],
  ];
  for (const [status, headers, text] of answers) {
    expect(failedBy(headed(status, headers, text))).toEqual([]);
    expect(failedBy(headed(status, headers, text, 100)).length).toBeGreaterThan(0);
  }
});

test('updates larger than any order needs that were refused change nothing: refused all, the order holds what it held in the fields they sent; one taken, no refused one\'s value is stored', () => {
  const before = { id: 'a', price: 25 };
  const sent = [{ note: 'x'.repeat(10) }, { note: 'with a header' }];
  const refused = answer('updateOrder', 413, { meta: {} });
  const held = (after: unknown, updates = [refused, refused]) => violationIn(oversizedRefusalsLeftOrder(before, sent, updates, answer('getOrder', 200, after)))?.requirementId;
  expect(held({ id: 'a', price: 25 })).toBeUndefined();
  // A note stored (cut at the limit, or whole) by an update answered 413.
  expect(held({ id: 'a', price: 25, note: 'xxxx' })).toBe('ORD-GEN-005');
  expect(held({ id: 'a', price: 25, note: 'with a header' }, [refused, answer('updateOrder', 200, {})])).toBeUndefined();
  expect(held({ id: 'a', price: 25, note: 'x'.repeat(10) }, [refused, answer('updateOrder', 200, {})])).toBe('ORD-GEN-005');
  // Taken all: nothing a refusal could have changed.
  expect(oversizedRefusalsLeftOrder(before, sent, [answer('updateOrder', 200, {}), answer('updateOrder', 200, {})], answer('getOrder', 200, {}))).toBeUndefined();
});

test('JSON a lenient parser reads: taken or refused passes, a 5xx fails; a later get that is no JSON (NaN written out) fails, whatever its label', () => {
  const what = 'a create with price NaN';
  expect(violationIn(lenientBodyAnswered(what)(answer('createOrder', 201, { id: 'a' })))).toBeUndefined();
  expect(violationIn(lenientBodyAnswered(what)(answer('createOrder', 400, { meta: {} })))).toBeUndefined();
  expect(violationIn(lenientBodyAnswered(what)(answer('createOrder', 500, { meta: {} })))?.requirementId).toBe('ORD-ERR-009');
  const nanWritten: Exchange = { ...answer('getOrder', 200, undefined), text: '{"id":"a","price":NaN}' };
  expect(violationIn(readBackAfterLenientBody(what)(nanWritten))?.requirementId).toBe('ORD-ERR-009');
  expect(violationIn(readBackAfterLenientBody(what)({ ...answer('getOrder', 200, { id: 'a' }), headers: { 'content-type': 'text/plain' } }))).toBeUndefined();
  expect(violationIn(readBackAfterLenientBody(what)(answer('getOrder', 500, { meta: {} })))?.requirementId).toBe('ORD-ERR-009');
});

test('internals in an answer the service writes in its own words are found, each named by its marker, its stack and where it is', () => {
  const trace = 'Traceback (most recent call last):\n  File "/app/orders/views.py", line 42, in get_order\nKeyError: \'id\'';
  const crashed = answer('getOrder', 500, { success: false, meta: { status: 500, code: 'internal_error', message: trace } });
  const finding = violationIn(noInternalsLeaked(crashed));
  expect(finding?.requirementId).toBe('ORD-ERR-010');
  expect(finding?.received).toContain(`a Python traceback (Python) at /meta/message: ${JSON.stringify('Traceback (most recent call last)')}`);
  expect(finding?.received).toContain('a Python stack frame (Python) at /meta/message');
  expect(finding?.fieldsAtFault).toEqual(['/meta/message']);
  expect(responseRequirements(crashed)).toContain('ORD-ERR-010');
  // A page that is not JSON is searched whole, whatever its status: a debug page served with 200 too.
  const page = { ...answer('getOrder', 200, undefined), headers: { 'content-type': 'text/html' }, text: "<h1>KeyError</h1><p>You're seeing this error because you have <code>DEBUG = True</code> in your Django settings file.</p>" };
  expect(violationIn(noInternalsLeaked(page))?.received).toMatch(/^Django's debug page \(Django\) at the body: "You're seeing/);
  // Markup in what matched is server text: the finding quotes it, as every report escapes it.
  expect(violationIn(noInternalsLeaked(page))?.received).toContain(JSON.stringify("You're seeing this error because you have <code>DEBUG = True</code>"));
});

test('each marker of the table is found in what its stack writes, and none in the words a service writes for its client', () => {
  const written: Record<string, string> = {
    'a Python traceback': 'Traceback (most recent call last):',
    'a Python stack frame': 'File "/srv/app/models.py", line 12, in save',
    'a V8 stack frame': '    at Layer.handle [as handle_request] (/app/node_modules/express/lib/router/layer.js:95:5)',
    'a V8 stack frame of an anonymous function': 'at Object.<anonymous> (server.js)',
    'a Java stack frame': 'at com.example.orders.OrderController.get(OrderController.java:42)',
    'a Java exception class': 'java.lang.NullPointerException: Cannot invoke "String.length()"',
    'a .NET stack frame': 'at Orders.Api.OrderController.Get(Int32 id) in /src/Orders/OrderController.cs:line 27',
    'a .NET exception class': 'System.InvalidOperationException: Sequence contains no elements',
    'a PHP stack trace': 'Stack trace:\n#0 /var/www/html/index.php(12): find()',
    'a PHP error with its file and line': 'Uncaught TypeError in /var/www/html/orders.php on line 31',
    'a Ruby stack frame': "app/controllers/orders_controller.rb:8:in `show'",
    'a Go panic': 'panic: runtime error: invalid memory address or nil pointer dereference',
    'a Rust panic': "thread 'tokio-runtime-worker' panicked at src/orders.rs:40:10",
    'a source file of the server named by its path': 'error in /usr/src/app/dist/routes/orders.js',
    'an SQLSTATE code': 'SQLSTATE[23000]: Integrity constraint violation',
    "PostgreSQL's syntax error": 'ERROR:  syntax error at or near "WHERE"',
    "PostgreSQL's error text": 'duplicate key value violates unique constraint "orders_pkey"',
    "MySQL's error text": "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version",
    "SQLite's error code": 'SQLITE_CONSTRAINT: UNIQUE constraint failed: orders.id',
    'an Oracle error code': 'ORA-01722: invalid number',
    "SQL Server's error text": "Unclosed quotation mark after the character string ''.",
    "an ORM's error class": 'SequelizeDatabaseError: column "x" does not exist',
    "Django's debug page": "You're seeing this error because you have <code>DEBUG = True</code>",
    "Werkzeug's debugger": '<title>KeyError // Werkzeug Debugger</title>',
    "Rails' exception page": '<title>Action Controller: Exception caught</title>',
    "Whoops' error page": 'Whoops! There was an error.',
    "ASP.NET's error page": "Server Error in '/' Application.",
  };
  expect(LEAK_MARKERS.map(({ what }) => what).sort()).toEqual(Object.keys(written).sort());
  for (const marker of LEAK_MARKERS) {
    expect(marker.pattern.test(written[marker.what]), `${marker.what} in ${JSON.stringify(written[marker.what])}`).toBe(true);
    expect(marker.stack.length, marker.what).toBeGreaterThan(0);
  }
  // What services write for their clients, the reference server's and Jackson's words among them: no marker.
  const words = [
    'No order with id 12abc',
    'The request body is invalid',
    'expected type number',
    'Allowed methods: GET, PUT, DELETE',
    'order_id is not validly percent-encoded',
    'Unexpected server error',
    'Internal Server Error',
    'SyntaxError: Unexpected end of JSON input',
    "TypeError: Cannot read properties of undefined (reading 'items')",
    'value too long for the column',
    'JSON parse error: Cannot deserialize items.0.quantity (expected type integer) from "zz" (through reference chain: OrderRequest["items"]->java.util.ArrayList[0]->Item["quantity"])',
    '1 validation error for Request body -> items -> 0 -> quantity: value is not a valid integer',
    'quantity must be an integer at items[0] (got "3")',
  ];
  for (const text of words) expect(LEAK_MARKERS.filter(({ pattern }) => pattern.test(text)).map(({ what }) => what), text).toEqual([]);
});

test('a marker the request carried, echoed, is no leak; nor is a 2xx JSON answer, which holds order data, judged at all', () => {
  const note = 'Traceback (most recent call last): SQLSTATE[42000] at /app/x.js:1:2';
  const echoed = (request: Partial<Exchange['request']>, json: unknown, status = 400): Exchange => ({ ...answer('createOrder', status, json), request: { method: 'POST', url: 'http://127.0.0.1/orders', path: '/orders', headers: {}, ...request } });
  // A note the client sent, echoed in a refusal: its own words.
  const refusal = echoed({ body: JSON.stringify({ note, price: 'x' }) }, { success: false, meta: { status: 400, code: 'invalid', message: `price is not a number (note was ${note})` } });
  expect(violationIn(noInternalsLeaked(refusal))).toBeUndefined();
  // An id echoed from the path, percent-encoded as sent: decoded, it is the client's.
  const path = `/orders/${encodeURIComponent('SQLSTATE "x"')}`;
  expect(violationIn(noInternalsLeaked(echoed({ method: 'GET', path }, { success: false, meta: { status: 404, code: 'not_found', message: 'No order with id SQLSTATE "x"' } }, 404)))).toBeUndefined();
  // The marker the request did not carry is still found beside the echo.
  const beside = echoed({ method: 'GET', path: '/orders/12abc' }, { success: false, meta: { status: 404, code: 'not_found', message: 'SQLSTATE[22P02]: invalid input syntax for type integer: "12abc"' } }, 404);
  expect(violationIn(noInternalsLeaked(beside))?.received).toContain('an SQLSTATE code (SQL (PDO, JDBC, ODBC)) at /meta/message');
  // Orders (another user's on a shared account, in a list) hold whatever text their clients wrote.
  const list = answer('listOrders', 200, { success: true, meta: { status: 200, total: 1 }, data: [{ id: 'a', note }] });
  expect(noInternalsLeaked(list)).toBeUndefined();
  expect(responseRequirements(list)).not.toContain('ORD-ERR-010');
  // Mislabelled, it is still order data (its label is ORD-GEN-001's to judge).
  expect(noInternalsLeaked({ ...list, headers: { 'content-type': 'text/plain' } })).toBeUndefined();
});

test("a method the interface does not define: a 405's Allow names the path's methods and not the one refused; 404, 501 and any 4xx pass, a 5xx fails", () => {
  const [patchOrder] = undefinedMethods().filter(({ method, path }) => method === 'PATCH' && path === '/orders/{order_id}');
  const [deleteAll] = undefinedMethods().filter(({ method, path }) => method === 'DELETE' && path === '/orders');
  expect([patchOrder.defined, deleteAll.defined]).toEqual([['GET', 'PUT', 'DELETE'], ['GET', 'POST']]);
  expect(undefinedMethods().map(({ method, path }) => `${method} ${path}`).sort()).toEqual(['DELETE /orders', 'PATCH /orders', 'PATCH /orders/{order_id}', 'POST /orders/{order_id}', 'PUT /orders']);
  expect(allowProblem('GET, PUT, DELETE', patchOrder)).toBeUndefined();
  expect(allowProblem('GET, PUT, DELETE, HEAD, OPTIONS', patchOrder)).toBeUndefined();
  expect(allowProblem('delete,get ,put', patchOrder)).toBeUndefined();
  expect(allowProblem(undefined, patchOrder)).toBe('no Allow header');
  expect(allowProblem('GET, PUT', patchOrder)).toBe('Allow "GET, PUT", which leaves out DELETE');
  expect(allowProblem('', deleteAll)).toBe('Allow "", which leaves out GET, POST');
  expect(allowProblem('GET, POST, DELETE', deleteAll)).toBe('Allow "GET, POST, DELETE", which names DELETE, the method it refused');
  const refused = (status: number, headers: Record<string, string> = {}) => ({ ...answer(undefined, status, { success: false, meta: { status, code: 'x', message: 'x' } }), headers: { 'content-type': 'application/json', ...headers } });
  for (const status of [404, 501, 403, 400]) expect(violationIn(undefinedMethodAnswered(patchOrder, refused(status))), `${status}`).toBeUndefined();
  expect(violationIn(undefinedMethodAnswered(patchOrder, refused(405, { allow: 'GET, PUT, DELETE' })))).toBeUndefined();
  expect(violationIn(undefinedMethodAnswered(patchOrder, refused(405)))?.received).toBe('405 with no Allow header');
  expect(violationIn(undefinedMethodAnswered(deleteAll, refused(500)))?.received).toBe('500');
  // Counted for the operation of the path's GET: the cell a run checks it on.
  expect(undefinedMethodAnswered(deleteAll, refused(405, { allow: 'GET, POST' })).on.map(({ operationId }) => operationId)).toEqual(['listOrders']);
});
