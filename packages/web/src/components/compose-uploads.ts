/** Uploads from the compose box, with progress: each finished one hands its Markdown link to `onDone`. */
import { useState } from 'preact/hooks';
import { useWorkspace } from '../app-context';
import { basicAuthorization, uploadMarkdown, uploadWithProgress } from '../lib/upload';

export interface Upload {
  id: number;
  name: string;
  progress: number;
}

export function useUploads(onDone: (markdown: string) => void, onError: (message: string) => void) {
  const { session } = useWorkspace();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const upload = (files: Iterable<File>) => {
    const authorization = basicAuthorization(session.email, session.apiKey);
    for (const file of files) {
      const id = Math.random();
      const forget = () => setUploads((list) => list.filter((item) => item.id !== id));
      setUploads((list) => [...list, { id, name: file.name, progress: 0 }]);
      uploadWithProgress(location.origin, authorization, file, (progress) =>
        setUploads((list) => list.map((item) => (item.id === id ? { ...item, progress } : item))),
      ).then(
        (result) => {
          onDone(uploadMarkdown(result));
          forget();
        },
        (failure: Error) => {
          onError(`${file.name}: ${failure.message}`);
          forget();
        },
      );
    }
  };
  return { uploads, upload };
}
