/**
 * File uploads with progress. The client's `uploadFile` sends through fetch, which reports no
 * upload progress; XMLHttpRequest does, so uploads go through it, to the same public endpoint
 * (POST /api/v1/user_uploads) with the same credentials.
 */
export interface UploadResult {
  url: string;
  filename: string;
}

/** The Markdown link the compose box inserts for an upload, as the reference writes it. */
export function uploadMarkdown(result: UploadResult): string {
  const name = result.filename.replace(/[[\]]/g, '');
  return `[${name}](${result.url})`;
}

export function uploadWithProgress(
  serverUrl: string,
  authorization: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${serverUrl.replace(/\/+$/, '')}/api/v1/user_uploads`);
    request.setRequestHeader('Authorization', authorization);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      let body: { result?: string; msg?: string; url?: string; uri?: string; filename?: string } = {};
      try {
        body = JSON.parse(request.responseText);
      } catch {
        // Not the API's JSON: reported below.
      }
      if (request.status < 300 && body.result === 'success') {
        resolve({ url: body.url ?? body.uri ?? '', filename: body.filename ?? file.name });
      } else {
        reject(new Error(body.msg ?? `Upload failed (HTTP ${request.status})`));
      }
    };
    request.onerror = () => reject(new Error('Upload failed: the server could not be reached'));
    const form = new FormData();
    form.append('file', file, file.name);
    request.send(form);
  });
}

/** `Basic base64(email:key)`, UTF-8 safe. */
export function basicAuthorization(email: string, apiKey: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(`${email}:${apiKey}`)) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}
