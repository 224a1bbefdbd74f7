import { fullOrder } from '../contract/examples';

/**
 * Which fields of a nested object a server requires is not shown (2.7: "Required-ness and length limits of
 * nested fields: not shown"; ORD-OBS-026). The suite's fully filled order (fullOrder) carries in each nested
 * object the fields a realistic client sends, and every correct server accepts it (ORD-CREATE-001). A body
 * one of whose nested objects leaves out such a field may be refused by a correct server: that refusal is
 * inconclusive, never a failure.
 */

let filled: Set<string> | undefined;

/** "customer/address/zip", "items/*\/name" …: the fields fullOrder carries in each nested object (in every element of an array). */
function filledFields(): Set<string> {
  if (filled) return filled;
  filled = new Set();
  collect(fullOrder(), '', filled);
  return filled;
}

function collect(value: unknown, path: string, into: Set<string>): void {
  if (Array.isArray(value)) {
    // A field counts for the elements of an array only when every element carries it.
    const perElement = value.map((element) => {
      const fields = new Set<string>();
      collect(element, `${path}/*`, fields);
      return fields;
    });
    for (const field of perElement[0] ?? []) if (perElement.every((fields) => fields.has(field))) into.add(field);
    return;
  }
  if (!value || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value)) {
    // An external id names a record of the client's own (string or null, 2.3, 2.4, 2.6): a client without one leaves it out.
    if (path && key !== 'external_id') into.add(`${path}/${key}`);
    collect(inner, `${path}/${key}`, into);
  }
}

/**
 * The first field fullOrder carries that a nested object of `body` (a create or update body) leaves out,
 * as "customer.address without zip", or undefined when every nested object sent carries them all.
 */
export function nestedFieldLeftOut(body: unknown, path = ''): string | undefined {
  if (Array.isArray(body)) return body.map((element) => nestedFieldLeftOut(element, `${path}/*`)).find(Boolean);
  if (!body || typeof body !== 'object') return undefined;
  const object = body as Record<string, unknown>;
  if (path) {
    const prefix = `${path}/`;
    const missing = [...filledFields()].find((field) => field.startsWith(prefix) && !field.slice(prefix.length).includes('/') && !(field.slice(prefix.length) in object));
    if (missing) return `${path.slice(1).replace(/\/\*/g, '[]').replace(/\//g, '.')} without ${missing.slice(prefix.length)}`;
  }
  return Object.entries(object).map(([key, inner]) => nestedFieldLeftOut(inner, `${path}/${key}`)).find(Boolean);
}
