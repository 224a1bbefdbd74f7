// Dredd hooks of the network bench (bench/peers.ts): what a team adopting Dredd writes for this interface.
// Dredd loads this file itself; `hooks` is the module it provides. Plain JavaScript, so Dredd needs no
// transpiler. The bearer token comes from the environment (BENCH_PEER_TOKEN), never from a file.
const hooks = require('hooks');

// openapi.yaml gives order_id no usable value: the bench writes a placeholder as its example (named in
// BENCH_ORDER_ID_PLACEHOLDER), and the id of the order Dredd's own create returned replaces it (Dredd runs
// the operations in document order: list, create, get, update, delete).
const PLACEHOLDER = process.env.BENCH_ORDER_ID_PLACEHOLDER;
let orderId;

hooks.beforeEach((transaction) => {
  // Section 5.1: every order operation carries Authorization: Bearer <token>.
  transaction.request.headers.Authorization = `Bearer ${process.env.BENCH_PEER_TOKEN}`;
  if (orderId !== undefined && PLACEHOLDER) transaction.fullPath = transaction.fullPath.replace(PLACEHOLDER, encodeURIComponent(orderId));
});

hooks.afterEach((transaction) => {
  if (transaction.request.method !== 'POST' || transaction.fullPath !== '/orders' || !transaction.real) return;
  try {
    const id = JSON.parse(transaction.real.body).id;
    if (typeof id === 'string' || typeof id === 'number') orderId = String(id);
  } catch {
    // Not JSON: Dredd's own validation of the create fails it; get, update and delete then get the placeholder and fail too.
  }
});

// openapi.yaml answers every operation with a 2XX range (the document does not fix success codes). Dredd 14
// skips ranges ("status code ranges are unsupported") and expects 200 with nothing more: any 2xx the server
// sends is what the contract allows.
hooks.beforeEachValidation((transaction) => {
  const status = transaction.real.statusCode;
  if (String(transaction.expected.statusCode) === '200' && status >= 200 && status < 300) transaction.expected.statusCode = String(status);
});
