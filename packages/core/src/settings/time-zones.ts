/**
 * Profile time zones: which names `timezone` accepts and the name stored for each.
 *
 * The reference accepts the IANA database's names and stores the canonical one. This server
 * takes the zones the runtime knows (`Intl.supportedValuesOf('timeZone')`), plus "" (not set)
 * and "UTC". ICU lists some zones under names IANA has since replaced (Asia/Calcutta for
 * Asia/Kolkata): both spellings are accepted and the current IANA name is stored, as the
 * reference stores it, whichever name the runtime's ICU version happens to list.
 */

/** Current IANA name → the older name ICU (CLDR) still uses as the zone's identifier. */
const RENAMED_ZONES: Readonly<Record<string, string>> = {
  'Africa/Asmara': 'Africa/Asmera',
  'America/Argentina/Buenos_Aires': 'America/Buenos_Aires',
  'America/Argentina/Catamarca': 'America/Catamarca',
  'America/Argentina/Cordoba': 'America/Cordoba',
  'America/Argentina/Jujuy': 'America/Jujuy',
  'America/Argentina/Mendoza': 'America/Mendoza',
  'America/Atikokan': 'America/Coral_Harbour',
  'America/Indiana/Indianapolis': 'America/Indianapolis',
  'America/Kentucky/Louisville': 'America/Louisville',
  'America/Nuuk': 'America/Godthab',
  'Asia/Ho_Chi_Minh': 'Asia/Saigon',
  'Asia/Kathmandu': 'Asia/Katmandu',
  'Asia/Kolkata': 'Asia/Calcutta',
  'Asia/Yangon': 'Asia/Rangoon',
  'Atlantic/Faroe': 'Atlantic/Faeroe',
  'Europe/Kyiv': 'Europe/Kiev',
  'Pacific/Chuuk': 'Pacific/Truk',
  'Pacific/Kanton': 'Pacific/Enderbury',
  'Pacific/Pohnpei': 'Pacific/Ponape',
};

function runtimeKnows(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Accepted name → stored name. Built once: ~420 zones. */
const ZONES: ReadonlyMap<string, string> = (() => {
  const zones = new Map<string, string>([
    ['', ''],
    ['UTC', 'UTC'],
  ]);
  for (const zone of Intl.supportedValuesOf('timeZone')) zones.set(zone, zone);
  for (const [current, older] of Object.entries(RENAMED_ZONES)) {
    if (!runtimeKnows(current)) continue;
    zones.set(current, current);
    if (runtimeKnows(older)) zones.set(older, current);
  }
  return zones;
})();

/** Whether `timezone` accepts `name` (exact spelling: IANA names are case-sensitive). */
export const isKnownTimeZone = (name: string): boolean => ZONES.has(name);

/** The name stored for an accepted `name`: the current IANA name of the zone. */
export const canonicalTimeZone = (name: string): string => ZONES.get(name) ?? name;
