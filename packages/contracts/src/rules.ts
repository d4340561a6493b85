/** Validation rules of spec section 5, shared by server and web. */

/** File and folder names must not contain \ / : * ? " < > | (the stricter checker also forbids &). */
export const FORBIDDEN_NAME_CHARS = ['\\', '/', ':', '*', '?', '"', '<', '>', '|', '&'] as const;
export const MAX_NAME_LENGTH = 255;

/**
 * Names Windows reserves for devices, with or without an extension ("CON", "con.dwg", "LPT1.tar.gz", "COM¹"):
 * such a file cannot be saved or unzipped there, and opening one may reach the device.
 */
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|conin\$|conout\$|(com|lpt)[0-9\u00b9\u00b2\u00b3])$/i;
/**
 * Characters never valid in a name: control characters (C0, DEL, C1), bidirectional controls such as U+202E
 * RIGHT-TO-LEFT OVERRIDE (they make "gpj.exe" look like "exe.jpg"), line and paragraph separators, the byte
 * order mark, and halves of a surrogate pair.
 */
const INVISIBLE_OR_CONTROL = /[\p{Cc}\p{Bidi_Control}\u2028\u2029\ufeff\p{Cs}]/u;

export function isValidItemName(name: string): boolean {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_NAME_LENGTH) return false;
  if (INVISIBLE_OR_CONTROL.test(trimmed)) return false;
  if (FORBIDDEN_NAME_CHARS.some((c) => trimmed.includes(c))) return false;
  // only dots and spaces ("." "..", ". ."), or a trailing dot: Windows drops trailing dots, so "plan.dwg." is "plan.dwg" there
  if (/^[.\s]+$/.test(trimmed) || trimmed.endsWith('.')) return false;
  // a stem of only dots ("..dwg", "...dwg") reads as a path part
  const ext = extensionOf(trimmed);
  if (ext && /^[.\s]+$/.test(trimmed.slice(0, -(ext.length + 1)))) return false;
  // Windows matches device names on the part before the first dot, trailing spaces ignored
  return !WINDOWS_DEVICE_NAME.test(trimmed.split('.')[0].trimEnd());
}

/** Each part of a folder upload's relative path ("Project/Sub/plan.dwg") is a name of its own. */
export function isValidRelativePath(relativePath: string): boolean {
  const parts = relativePath.split('/').filter(Boolean);
  return parts.length > 0 && parts.every(isValidItemName);
}

/** Extension after the last dot, lower-cased; '' when there is none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 || dot === name.length - 1 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Type groups of section 5 (used by listTypeFiles includeTypes/excludeTypes and the /yun lists). */
export const TYPE_GROUPS = {
  image: ['gif', 'jpg', 'png', 'bmp', 'jpeg'],
  drawing: ['ocf', 'dwg', 'dxf', 'dws', 'dwt', 'dwf'],
  document: ['txt', 'doc', 'docx', 'pdf', 'xls', 'xlsx', 'ppt', 'pptx'],
  // the spec's rvt, plus every format @cadcloud/model3d reads (model3d.types.test.ts keeps them in step) and SketchUp
  threeD: ['rvt', 'step', 'stp', 'iges', 'igs', 'brep', 'brp', 'ifc', '3dm', 'obj', 'stl', 'ply', 'off', 'fbx', 'gltf', 'glb', 'skp', '3ds', 'dae', '3mf'],
  archive: ['zip', 'rar', '7z'],
  font: ['ttf', 'ttc', 'shx'],
} as const;
export type TypeGroup = keyof typeof TYPE_GROUPS;
/** Every extension of a type group: a file of any other type counts as 3D-viewable (spec section 5). */
export const KNOWN_TYPES: readonly string[] = Object.values(TYPE_GROUPS).flat();

export function typeGroupOf(ext: string): TypeGroup | 'other' {
  const e = ext.toLowerCase();
  for (const [group, exts] of Object.entries(TYPE_GROUPS)) {
    if ((exts as readonly string[]).includes(e)) return group as TypeGroup;
  }
  return 'other';
}

/**
 * users.vip_type (set by the admin CLI `user vip --email E --type N` until the commerce issue lands): 0 free, 1 premium
 * (VIP) member, 2 super member. Any membership (> 0) lifts the monthly conversion allowance; 3D conversion needs the
 * super membership (spec section 1), others get the operator's free 3D trials.
 */
export const VipType = { FREE: 0, VIP: 1, SUPER: 2 } as const;

/** Item kinds */
export const ItemKind = { Folder: 0, File: 1 } as const;
export const PrivateType = { Open: '0', Private: '1' } as const;
export const Freeze = { UnFreeze: 0, Freeze: 1 } as const;
export const TransformStatus = { IN_TRANSFORM: 0, SUCCESS_TRANSFORM: 1, FAIL_TRANSFORM: 2, NO_TRANSFORM: 3 } as const;
export const TaskStatus = { BEFORE: 0, IN: 1, SUCCESS: 2, FAIL: 3, LOCK: 4, PASSWORD_ERR: 5, PASSWORD_LOADING: 6 } as const;
export const TaskType = { DOWNLOAD: 1, UNZIP: 2 } as const;
export const DeleteLevel = { NORMAL: 0, PERMANENT: 1, EMPTY_TRASH: 2 } as const;

export const TRASH_RETENTION_DAYS = 10;
export const MAX_CONCURRENT_UPLOADS = 3;
export const FOLDER_LIST_PAGE_SIZE = 9999;
export const ROOT_FOLDER_ID = '0';
/**
 * Folders nest at most this deep (a top-level folder is level 1). Every walk of the tree stops here, so it is
 * bounded even on a corrupted tree; creating, moving, restoring or saving a folder deeper is refused.
 */
export const MAX_FOLDER_DEPTH = 64;

/** B, KB, MB, GB with 2 decimals (section 9). */
export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(2)}${units[i]}`;
}
