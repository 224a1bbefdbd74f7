import fc from 'fast-check';
import { emptyModel, orderCommands, type OrdersReal } from '../../model';
import type { OmsApi } from '../../harness/requests/api';
import type { AccountName, Settings } from '../../config/settings';
import { EFFORT, forAll, readReplay, stopOn } from '../../harness/property';
import { judgedWhenSettled } from '../../harness/requests/listing';
import { test } from '../../harness/fixtures';
import { verifies } from '../../harness/record/verifies';

// Random sequences of requests, each answer compared with a model of the orders the run created.
test.describe('model-based runs (4.1 to 4.5)', () => {
  test(
    'keeps the orders it creates as sent, through any sequence of create, get, list, update and delete',
    verifies(
      'ORD-CREATE-001',
      'ORD-CREATE-004',
      'ORD-GET-001',
      'ORD-GET-002',
      'ORD-UPDATE-001',
      'ORD-UPDATE-002',
      'ORD-UPDATE-003',
      'ORD-UPDATE-005',
      'ORD-DELETE-001',
      'ORD-DELETE-002',
      'ORD-LIST-004',
      'ORD-LIST-007',
      'ORD-LIST-008',
      'ORD-ERR-008',
    ),
    async ({ api, settings }) => {
      await runSequences(settings, { A: api });
    },
  );

  test(
    'keeps the orders of two accounts apart, through any sequence of requests of both',
    verifies('ORD-ISO-001', 'ORD-ISO-002', 'ORD-ISO-003'),
    async ({ api, apiB, settings }) => {
      await runSequences(settings, { A: api, B: apiB });
    },
  );
});

async function runSequences(settings: Settings, apis: Partial<Record<AccountName, OmsApi>>): Promise<void> {
  const accounts = Object.keys(apis) as AccountName[];
  const profile = EFFORT[settings.effort];
  const commands = (replayPath: string | undefined) => orderCommands({ accounts, maxCommands: profile.maxCommands, replayPath });
  await forAll(settings, {
    input: commands(readReplay(settings).commandsPath),
    replayInput: commands,
    numRuns: profile.sequences,
    unit: 'command sequences',
    run: async (commands, trail) => {
      const recorded = Object.fromEntries(Object.entries(apis).map(([account, api]) => [account, trail.api(api)]));
      const real: OrdersReal = { apis: recorded, ids: new Map<number, string>(), stopOn, whenSettled: (api, read, judge) => judgedWhenSettled(api as OmsApi, read, judge) };
      await fc.asyncModelRun(() => ({ model: emptyModel(accounts), real }), commands);
      return undefined;
    },
  });
}
