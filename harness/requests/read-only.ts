import { settingName } from '../../config/settings';
import type { Sender } from '../http/stage';
import { skipTest } from '../record/skips';
import { refuseWriteInQuiet } from '../schedule/scheduler';

/**
 * The read-only guard of the request pipeline: in read-only mode (OMS_READ_ONLY) a request that could change something
 * is not sent, and the test that needed it is skipped with the setting that would let it run; nor is one from a test
 * reading its views while nothing of the run writes (a defect of the suite).
 */
export function readOnlyGuarded(next: Sender, readOnly: boolean): Sender {
  return {
    async send(request) {
      if (request.spec.method !== 'GET') {
        const what = WRITES[request.operation ?? ''] ?? `send ${request.spec.method} ${request.spec.path}`;
        if (readOnly) refuseInReadOnly(what);
        refuseWriteInQuiet(what);
      }
      return await next.send(request);
    },
  };
}

/** What a write of the interface needs, in a skip's words. */
const WRITES: Record<string, string> = { updateOrder: 'update an order', deleteOrder: 'delete an order' };

/** Skips the current test: in read-only mode it would need to do `what`. */
export function refuseInReadOnly(what: string): never {
  return skipTest({ kind: 'configuration', reason: `read-only mode (${settingName('readOnly')}): this check needs to ${what}`, settings: [readOnlyOff()] });
}

/** What turns read-only mode off, in the user's terms: drop --read-only, or unset OMS_READ_ONLY. */
export function readOnlyOff(): string {
  const name = settingName('readOnly');
  return `${name.startsWith('--') ? 'drop' : 'unset'} ${name}`;
}
