/**
 * Uploaded files shown or opened from messages. They need the API key, which neither an <img>
 * nor a link can carry: images are fetched by the client and shown from blob URLs (kept for the
 * tab's life, as the browser would cache them), and links open the server's short-lived
 * temporary URL (GET /user_uploads/{realm_id}/{filename} answers it).
 */
import type { Client } from '@teamchat/client';

const blobUrls = new Map<string, Promise<string>>();

export function uploadBlobUrl(client: Client, path: string): Promise<string> {
  let url = blobUrls.get(path);
  if (!url) {
    url = client
      .fetchFile(path)
      .then((response) => response.blob())
      .then((blob) => URL.createObjectURL(blob));
    url.catch(() => blobUrls.delete(path));
    blobUrls.set(path, url);
  }
  return url;
}

/** `/user_uploads/1/ab/cd/x.png` as the endpoint's parameters; undefined for other paths. */
export function uploadParams(href: string): { realm_id: string; filename: string } | undefined {
  const match = /^\/user_uploads\/(\d+)\/(.+)$/.exec(href.split(/[?#]/)[0]!);
  return match ? { realm_id: match[1]!, filename: decodeURIComponent(match[2]!) } : undefined;
}

/** Opens an upload in a new tab. The tab opens at once (a popup must come from the click), then goes to the temporary URL. */
export function openUpload(client: Client, href: string): void {
  const params = uploadParams(href);
  if (!params) return;
  const tab = window.open('about:blank', '_blank');
  if (tab) tab.opener = null;
  client.getFileTemporaryUrl(params as never).then(
    (answer) => {
      const url = (answer as unknown as { url: string }).url;
      if (tab) tab.location.href = url;
      else window.location.assign(url);
    },
    () => tab?.close(),
  );
}
