/** The reference's validate_domain (lib/domains.py): the text after "Invalid domain: ", or null when valid. */
export function domainProblem(domain: string): string | null {
  if (domain.length === 0) return "Domain can't be empty.";
  if (!domain.includes('.')) return 'Domain must have at least one dot (.)';
  if (domain.length > 255) return 'Domain is too long';
  if (domain.startsWith('.') || domain.endsWith('.')) return 'Domain cannot start or end with a dot (.)';
  for (const label of domain.split('.')) {
    if (label === '') return "Consecutive '.' are not allowed.";
    if (label.startsWith('-') || label.endsWith('-')) return "Subdomains cannot start or end with a '-'.";
    if (!/^[a-z0-9-]*$/.test(label)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return null;
}
