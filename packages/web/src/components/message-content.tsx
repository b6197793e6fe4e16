/** A message's sanitized HTML, with uploaded images loaded and upload links opened through the client (lib/upload-files.ts). */
import { useEffect, useRef } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { UPLOAD_SRC_ATTR, UPLOADS_PATH } from '../lib/sanitize';
import { openUpload, uploadBlobUrl } from '../lib/upload-files';

const IMAGE_FILE = /\.(?:png|jpe?g|gif|webp|avif|bmp)$/i;

export function MessageContent({ html, class: className = 'message-content' }: { html: string; class?: string }) {
  const { client } = useWorkspace();
  const element = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const root = element.current;
    if (!root) return;
    // The server links uploaded images without a preview: show one under the link.
    for (const link of root.querySelectorAll<HTMLAnchorElement>(`a[href^="${UPLOADS_PATH}"]`)) {
      const href = link.getAttribute('href')!;
      if (!IMAGE_FILE.test(href) || link.querySelector('img') || link.nextElementSibling?.classList.contains('upload-preview')) continue;
      const preview = document.createElement('img');
      preview.className = 'upload-preview';
      preview.alt = link.textContent ?? '';
      preview.setAttribute(UPLOAD_SRC_ATTR, href);
      link.after(preview);
    }
    for (const image of root.querySelectorAll<HTMLImageElement>(`img[${UPLOAD_SRC_ATTR}]`)) {
      uploadBlobUrl(client, image.getAttribute(UPLOAD_SRC_ATTR)!).then(
        (url) => (image.src = url),
        () => undefined,
      );
    }
  }, [html, client]);

  const onClick = (event: MouseEvent) => {
    const link = (event.target as HTMLElement).closest('a');
    const href = link?.getAttribute('href');
    if (!href?.startsWith(UPLOADS_PATH) || event.button !== 0) return;
    event.preventDefault();
    openUpload(client, href);
  };

  // Safe: `html` is sanitized by DOMPurify's allow-list (lib/sanitize.ts).
  // biome-ignore lint/a11y/useKeyWithClickEvents: the click handler only redirects link activation, which the keyboard triggers as a click too
  // biome-ignore lint/a11y/noStaticElementInteractions: as above, the links inside are the interactive elements
  return <div ref={element} class={className} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}
