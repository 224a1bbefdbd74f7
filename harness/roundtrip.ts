import { excerpt } from '../contract/openapi';
import { instantOf, isIso8601DateTime } from '../contract/datetime';

export interface Difference {
  pointer: string;
  sent: unknown;
  received: unknown;
}

/**
 * Where a response fails to carry what was sent, at every depth. Sent fields must come back with the
 * value sent; fields the service adds are fine. Equal means: text exactly (compared in Unicode NFC, so
 * a canonically equivalent spelling is not a difference), numbers by value, timestamps by instant
 * (precision and offset are open), arrays element by element in the order sent, a sent null as null or absent.
 */
export function differences(sent: unknown, received: unknown, pointer = ''): Difference[] {
  if (sent === null) return received === null || received === undefined ? [] : [{ pointer, sent, received }];
  if (Array.isArray(sent)) {
    if (!Array.isArray(received)) return [{ pointer, sent, received }];
    if (received.length !== sent.length) return [{ pointer: `${pointer} (length)`, sent: sent.length, received: received.length }];
    return sent.flatMap((element, index) => differences(element, received[index], `${pointer}/${index}`));
  }
  if (typeof sent === 'object') {
    if (!received || typeof received !== 'object' || Array.isArray(received)) return [{ pointer, sent, received }];
    return Object.entries(sent as Record<string, unknown>).flatMap(([key, value]) =>
      differences(value, (received as Record<string, unknown>)[key], `${pointer}/${key}`),
    );
  }
  return sameScalar(sent, received) ? [] : [{ pointer, sent, received }];
}

function sameScalar(sent: unknown, received: unknown): boolean {
  if (typeof sent === 'number' && typeof received === 'number') {
    return Math.abs(sent - received) <= 1e-9 * Math.max(1, Math.abs(sent));
  }
  if (typeof sent === 'string' && typeof received === 'string') {
    if (sent.normalize('NFC') === received.normalize('NFC')) return true;
    return isIso8601DateTime(sent) && isIso8601DateTime(received) && instantOf(sent) === instantOf(received);
  }
  return sent === received;
}

export function formatDifferences(found: Difference[], max = 10): string {
  const lines = found
    .slice(0, max)
    .map((d) => `  at ${d.pointer || '(root)'}: sent ${excerpt(d.sent)}, got ${d.received === undefined ? 'nothing (absent)' : excerpt(d.received)}`);
  if (found.length > max) lines.push(`  … and ${found.length - max} more`);
  return lines.join('\n');
}
