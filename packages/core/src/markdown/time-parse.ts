/**
 * Reading the time in `<time:…>`. The reference hands the text to a lenient date parser; this
 * accepts what people and clients actually write: ISO 8601 (what composers insert), UNIX
 * seconds, and day/month-name/year with an optional 12- or 24-hour time and zone
 * ("Jun 5th 2017, 10:30PM", "31 Dec 2017 5:30 am IST"). A time without a zone is UTC.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

// Zone abbreviations people write, as offsets in minutes (IST is India's, as in the reference).
const ZONES: Record<string, number> = {
  utc: 0, gmt: 0, z: 0, wet: 0, west: 60, bst: 60, cet: 60, cest: 120, eet: 120, eest: 180, msk: 180,
  pkt: 300, ist: 330, sgt: 480, hkt: 480, awst: 480, jst: 540, kst: 540, acst: 570, aest: 600,
  aedt: 660, nzst: 720, nzdt: 780, hst: -600, akst: -540, akdt: -480, pst: -480, pdt: -420,
  mst: -420, mdt: -360, cst: -360, cdt: -300, est: -300, edt: -240, brt: -180, art: -180,
};

interface Parts {
  year?: number;
  month?: number;
  day?: number;
  hour?: number;
  minute?: number;
  second?: number;
  micro?: number;
  meridiem?: 'am' | 'pm';
  offset?: number;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6})\d*)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** The instant the text names, or null when it names none. `now` supplies a missing date. */
export function parseTime(input: string, now?: Date): Date | null {
  const text = input.trim();
  if (/^-?\d+(\.\d+)?$/.test(text)) return fromUnix(Number(text));
  const iso = ISO.exec(text);
  const parts = iso ? isoParts(iso) : wordParts(text);
  return parts && toDate(parts, now);
}

/** The reference's `datetime.isoformat()` of a UTC instant (fractions only when nonzero), `Z` for UTC. */
export function formatIsoUtc(date: Date): string {
  const millis = date.getUTCMilliseconds();
  return `${date.toISOString().slice(0, 19)}${millis ? `.${String(millis * 1000).padStart(6, '0')}` : ''}Z`;
}

function fromUnix(seconds: number): Date | null {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999 || date.getUTCFullYear() < 1 ? null : date;
}

function isoParts(m: RegExpExecArray): Parts {
  const offset = m[8] === undefined ? undefined : zoneOffset(m[8]);
  return {
    year: Number(m[1]), month: Number(m[2]), day: Number(m[3]),
    hour: Number(m[4] ?? 0), minute: Number(m[5] ?? 0), second: Number(m[6] ?? 0),
    micro: m[7] ? Number(m[7].padEnd(6, '0')) : 0,
    ...(offset === undefined ? {} : { offset }),
  };
}

function zoneOffset(zone: string): number | undefined {
  const numeric = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (numeric) return (numeric[1] === '-' ? -1 : 1) * (Number(numeric[2]) * 60 + Number(numeric[3]));
  return ZONES[zone.toLowerCase()];
}

// Day, month name, year, time and zone in any order, as words separated by spaces or commas.
function wordParts(text: string): Parts | null {
  const parts: Parts = {};
  for (const word of text.split(/[\s,]+/).filter(Boolean)) {
    const lower = word.toLowerCase();
    const month = MONTHS.indexOf(lower.slice(0, 3));
    const time = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(am|pm|a\.m\.|p\.m\.)?$|^(\d{1,2})(am|pm)$/.exec(lower);
    const slashed = /^(\d{1,4})[/-](\d{1,2})[/-](\d{1,4})$/.exec(lower);
    const day = /^(\d{1,2})(st|nd|rd|th)?$/.exec(lower);
    if (month !== -1 && /^[a-z]+\.?$/.test(lower) && parts.month === undefined) parts.month = month + 1;
    else if (WEEKDAYS.includes(lower.slice(0, 3)) && /^[a-z]+,?$/.test(lower)) continue;
    else if (time) {
      parts.hour = Number(time[1] ?? time[5]);
      parts.minute = Number(time[2] ?? 0);
      parts.second = Number(time[3] ?? 0);
      const meridiem = time[4] ?? time[6];
      if (meridiem) parts.meridiem = meridiem.startsWith('a') ? 'am' : 'pm';
    } else if (lower === 'am' || lower === 'pm') parts.meridiem = lower;
    else if (slashed) Object.assign(parts, slashedDate(slashed));
    else if (day && parts.day === undefined && Number(day[1]) >= 1) parts.day = Number(day[1]);
    else if (/^\d{4}$/.test(lower) && parts.year === undefined) parts.year = Number(lower);
    else if (zoneOffset(word) !== undefined && parts.offset === undefined) parts.offset = zoneOffset(word)!;
    else return null;
  }
  return parts;
}

// 2017/06/05 is year first; 06/05/2017 is month first, as US-style parsers read it.
function slashedDate(m: RegExpExecArray): Parts {
  const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return m[1]!.length === 4 ? { year: a, month: b, day: c } : { year: c, month: a, day: b };
}

function toDate(parts: Parts, now?: Date): Date | null {
  const needsNow = parts.year === undefined || parts.month === undefined || parts.day === undefined;
  if (needsNow && !now) return null;
  const year = parts.year ?? now!.getUTCFullYear();
  const month = parts.month ?? now!.getUTCMonth() + 1;
  const day = parts.day ?? now!.getUTCDate();
  let hour = parts.hour ?? 0;
  if (parts.meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (parts.meridiem === 'pm' ? 12 : 0);
  }
  const [minute, second] = [parts.minute ?? 0, parts.second ?? 0];
  if (year < 1 || year > 9999 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second) - (parts.offset ?? 0) * 60_000;
  const date = new Date(utc);
  // Rejects 31 February and the like, which Date.UTC would roll over.
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null;
  date.setUTCMilliseconds(Math.floor((parts.micro ?? 0) / 1000));
  return date;
}
