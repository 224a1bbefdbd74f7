/**
 * A failure, split into the parts harness/findings.ts writes: the first line names the requirement,
 * then "Expected:", "Received:", "Request:", "Response:" and "Reproduce:" (a curl line).
 * Any part may be missing (a crash, a timeout, a plain expect); message always holds the whole text.
 */
export interface Evidence {
  /** The test that produced it. */
  test: string;
  message: string;
  expected?: string;
  received?: string;
  request?: string;
  response?: string;
  /** A curl line that reproduces the request; the token appears as $OMS_TOKEN. */
  curl?: string;
}

const PARTS = {
  'Expected:': 'expected',
  'Received:': 'received',
  'Request:': 'request',
  'Response:': 'response',
  'Reproduce:': 'curl',
} as const;

type Part = (typeof PARTS)[keyof typeof PARTS];

const ANSI = /\u001b\[[0-9;]*m/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

export function parseEvidence(test: string, rawMessage: string): Evidence {
  const message = stripAnsi(rawMessage).replace(/^Error: /, '').trim();
  const evidence: Evidence = { test, message };
  let current: Part | undefined;
  for (const line of message.split('\n').slice(1)) {
    const label = Object.keys(PARTS).find((prefix) => line.startsWith(prefix)) as keyof typeof PARTS | undefined;
    if (label) {
      current = PARTS[label];
      evidence[current] = line.slice(label.length).trim();
    } else if (current && current !== 'curl' && line.trim() !== '') {
      evidence[current] = `${evidence[current]}\n${line}`;
    } else {
      current = undefined;
    }
  }
  return evidence;
}
