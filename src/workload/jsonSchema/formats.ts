/**
 * String formats: an arbitrary of conforming strings and a check, for the formats the converter
 * knows. Their checks follow ajv-formats' "full" mode closely enough that a string this module
 * generates passes there too; an unknown format is left unchecked (plain strings), as the spec
 * makes `format` an annotation by default.
 */
import fc from 'fast-check';

export interface Format {
  readonly arbitrary: fc.Arbitrary<string>;
  readonly check: (value: string) => boolean;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

const dateParts = () =>
  fc.record({ year: fc.integer({ min: 1970, max: 2099 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 28 }) });
const time = (): fc.Arbitrary<string> =>
  fc
    .record({
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
      second: fc.integer({ min: 0, max: 59 }),
      millis: fc.option(fc.integer({ min: 0, max: 999 }), { nil: undefined }),
      offset: fc.option(fc.integer({ min: -12 * 60, max: 14 * 60 }).map((m) => m - (m % 15)), { nil: undefined }),
    })
    .map(({ hour, minute, second, millis, offset }) => {
      const fraction = millis === undefined ? '' : `.${pad(millis, 3)}`;
      const zone = offset === undefined ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
      return `${pad(hour)}:${pad(minute)}:${pad(second)}${fraction}${zone}`;
    });

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(z|[+-]([01]\d|2[0-3]):?[0-5]\d)$/i;
const DAYS = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function checkDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && !leap ? 28 : (DAYS[month] ?? 0));
}

const HOSTNAME = /^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?$/i;
const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const URI = /^[a-z][a-z0-9+\-.]*:[^\s]*$/i;

function checkIpv6(value: string): boolean {
  // URL's parser accepts exactly the RFC 4291 text forms (it rejects zones and brackets inside).
  if (!/^[0-9a-f:.]+$/i.test(value)) return false;
  try {
    return new URL(`http://[${value}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

/**
 * A format whose arbitrary is built on first use: fast-check's `emailAddress()`, `webUrl()` and
 * `domain()` cost about a second to build, and every command imports this module (through the
 * fuzz schema converter) though only `fuzz` with such a schema draws from them.
 */
function lazyFormat(build: () => fc.Arbitrary<string>, check: (value: string) => boolean): Format {
  let arbitrary: fc.Arbitrary<string> | undefined;
  return {
    get arbitrary() {
      return (arbitrary ??= build());
    },
    check,
  };
}

const date = (): fc.Arbitrary<string> => dateParts().map(({ year, month, day }) => `${pad(year, 4)}-${pad(month)}-${pad(day)}`);

export const FORMATS: ReadonlyMap<string, Format> = new Map<string, Format>([
  ['date', lazyFormat(date, checkDate)],
  ['time', lazyFormat(time, (v) => TIME.test(v))],
  [
    'date-time',
    lazyFormat(
      () => fc.tuple(date(), time()).map(([d, t]) => `${d}T${t}`),
      (v) => {
        const [d, t, ...rest] = v.split(/t/i);
        return rest.length === 0 && d !== undefined && t !== undefined && checkDate(d) && TIME.test(t);
      },
    ),
  ],
  ['email', lazyFormat(() => fc.emailAddress(), (v) => EMAIL.test(v))],
  ['uri', lazyFormat(() => fc.webUrl({ withQueryParameters: true, withFragments: true }), (v) => URI.test(v))],
  ['uuid', lazyFormat(() => fc.uuid(), (v) => UUID.test(v))],
  ['ipv4', lazyFormat(() => fc.ipV4(), (v) => IPV4.test(v))],
  ['ipv6', lazyFormat(() => fc.ipV6(), checkIpv6)],
  ['hostname', lazyFormat(() => fc.domain(), (v) => HOSTNAME.test(v))],
]);
