import type { FolderView } from '../../../src-shared/contract';

/**
 * Which watched folder a "Not uploaded" row belongs to, said only when there is more than one (two
 * `setup.exe` rows must be told apart): the folder's last path segment, the whole path in the tooltip.
 */
export function ProblemFolder({ folderId, folders }: { folderId: number | null; folders: FolderView[] }) {
  if (folders.length < 2) return null;
  const folder = folders.find((f) => f.id === folderId);
  if (!folder) return null;
  // Two folders with one last segment (two "Downloads") are told apart by their whole paths.
  const last = (path: string) => path.split(/[\\/]/).filter(Boolean).pop() ?? path;
  const clash = folders.some((f) => f.id !== folder.id && last(f.path) === last(folder.path));
  const short = clash ? folder.path : last(folder.path);
  return (
    <div className="small muted" data-testid="problem-folder" title={folder.path}>
      in {short} <span className="mono">({folder.bucket})</span>
    </div>
  );
}
