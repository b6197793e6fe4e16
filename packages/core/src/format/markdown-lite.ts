/**
 * Renders short plain-text descriptions as one HTML paragraph with the text escaped. Full
 * Markdown rendering arrives with the messages area and replaces this for descriptions.
 */
export function renderPlainParagraphs(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  return trimmed
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`);
}
