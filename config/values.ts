/**
 * How a setting's text becomes its value and back: one kind per shape of value. Each parser names what
 * is wrong in words that follow the variable's name ("OMS_SEED must be an integer, got ...").
 */
export interface ValueKind<T> {
  /** The value's placeholder in --help (URL, N, core|strict); absent for a switch, which its flag alone sets. */
  placeholder?: string;
  /** The value of a variable's text (not blank); throws InvalidValue saying what is wrong. */
  parse(text: string): T;
  /** Back to a variable's text: how a value resolved by one process reaches the processes it starts. */
  format(value: T): string;
  /** A file or directory: the command line makes it absolute before passing it on. */
  isPath?: boolean;
  /** Words that are not paths (`off`), passed on as they are. */
  words?: readonly string[];
  /** Taken as given, spaces included (a client secret may hold any printable character); other text is trimmed. */
  verbatim?: boolean;
}

/** What is wrong with a value, in words that follow the variable's name. */
export class InvalidValue extends Error {}

/** Letters, digits, ".", "_" and "-": a run id names files (the ledger, the run's temporary files). */
export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const show = (text: string): string => JSON.stringify(text);

export function text(placeholder: string): ValueKind<string> {
  return { placeholder, parse: (value) => value, format: (value) => value };
}

/** A token, client id or secret: used exactly as given. */
export function credential(placeholder: string): ValueKind<string> {
  return { ...text(placeholder), verbatim: true };
}

export function path(placeholder: string): ValueKind<string> {
  return { ...text(placeholder), isPath: true };
}

/** A directory, or `off` for none (false). */
export function directoryOrOff(placeholder: string): ValueKind<string | false> {
  return {
    placeholder: `${placeholder}|off`,
    isPath: true,
    words: ['off'],
    parse: (value) => (value.toLowerCase() === 'off' ? false : value),
    format: (value) => (value === false ? 'off' : value),
  };
}

export function choice<const T extends string>(allowed: readonly T[]): ValueKind<T> {
  return {
    placeholder: allowed.join('|'),
    parse(value) {
      if (!allowed.includes(value as T)) throw new InvalidValue(`must be one of ${allowed.join(', ')}, got ${show(value)}`);
      return value as T;
    },
    format: (value) => value,
  };
}

export function integer(placeholder: string): ValueKind<number> {
  return {
    placeholder,
    parse(value) {
      if (!/^-?\d+$/.test(value)) throw new InvalidValue(`must be an integer, got ${show(value)}`);
      return Number(value);
    },
    format: String,
  };
}

/** A seed of the generated tests: an integer, or `random` for a new one each run. */
export const seed: ValueKind<number | 'random'> = {
  placeholder: 'N|random',
  parse(value) {
    if (value.toLowerCase() === 'random') return 'random';
    if (!/^-?\d+$/.test(value)) throw new InvalidValue(`must be an integer, or random, got ${show(value)}`);
    return Number(value);
  },
  format: String,
};

/**
 * An integer within the range a setting can work with (a timeout of 0 ms, a response limit of 0 bytes or
 * a negative request rate would only fail later, and be blamed on the server): the message names the range.
 */
export function integerIn(placeholder: string, min: number, max: number, unit: string): ValueKind<number> {
  return {
    placeholder,
    parse(value) {
      const number = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
      if (!(number >= min && number <= max)) throw new InvalidValue(`must be a whole number of ${unit} from ${min} to ${max}, got ${show(value)}`);
      return number;
    },
    format: String,
  };
}

export function positiveInteger(placeholder: string): ValueKind<number> {
  return {
    placeholder,
    parse(value) {
      if (!/^[1-9]\d*$/.test(value)) throw new InvalidValue(`must be a positive integer, got ${show(value)}`);
      return Number(value);
    },
    format: String,
  };
}

const ON = ['1', 'true', 'yes'];
const OFF = ['0', 'false', 'no'];

/** A switch: on with 1 (true, yes), off with 0 (false, no) or unset; anything else is refused rather than read as off. */
export const onOff: ValueKind<boolean> = {
  parse(value) {
    const word = value.toLowerCase();
    if (ON.includes(word)) return true;
    if (OFF.includes(word)) return false;
    throw new InvalidValue(`must be 1 to switch it on (or true, yes), or 0 to leave it off (or false, no, or unset), got ${show(value)}`);
  },
  format: (value) => (value ? '1' : '0'),
};

/** An http(s) URL, without the trailing slash: paths are appended to it. */
export const httpUrl: ValueKind<string> = {
  placeholder: 'URL',
  parse(value) {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new InvalidValue(`is not a URL: ${show(value)}. Example: https://oms.example.com/api`);
    }
    if (!['http:', 'https:'].includes(parsed.protocol)) throw new InvalidValue(`must start with http:// or https://, got ${show(value)}`);
    return value.replace(/\/+$/, '');
  },
  format: (value) => value,
};

export const runId: ValueKind<string> = {
  placeholder: 'ID',
  parse(value) {
    if (!RUN_ID_PATTERN.test(value)) throw new InvalidValue(`may hold only letters, digits, ".", "_" and "-", got ${show(value)}`);
    return value;
  },
  format: (value) => value,
};

/** A structured value one process of the suite hands another. */
export function json<T>(): ValueKind<T> {
  return {
    parse(value) {
      try {
        return JSON.parse(value) as T;
      } catch (error) {
        throw new InvalidValue(`is not JSON: ${(error as Error).message}`);
      }
    },
    format: (value) => JSON.stringify(value),
  };
}
