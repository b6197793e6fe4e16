/** The options every management command shares: where the installation is, which realm, JSON output. */
import type { OptionTable } from '../command-spec.js';
import { databaseOption, dataDirOption, jsonOption } from '../options.js';
import { realmOption } from './realm.js';

/** `--data` and `--database`: the installation. */
export const INSTALLATION_OPTIONS = { data: dataDirOption, database: databaseOption } satisfies OptionTable;

/** The installation, a realm of it, and `--json`. */
export const REALM_OPTIONS = { ...INSTALLATION_OPTIONS, realm: realmOption } satisfies OptionTable;

export { jsonOption };
