/**
 * Stable error codes (`area.case`) with their rtnCode and the i18n key of the spec's message.
 * The server answers `{rtnCode, bizData: {code}, msg}` where msg is the message in the caller's language.
 * Exact rtnCodes are not shown by the spec beyond 0000000 and 101, so these are ours and stable.
 */
export const ERRORS = {
  'auth.notSignedIn': { rtnCode: '101', key: 'errors.auth.notSignedIn' },
  'auth.badCredentials': { rtnCode: '1000101', key: 'errors.auth.badCredentials' },
  'request.invalid': { rtnCode: '1000001', key: 'errors.request.invalid' },
  'request.malformed': { rtnCode: '1000002', key: 'errors.request.malformed' },
  'internal': { rtnCode: '1000500', key: 'errors.internal' },
  'item.notFound': { rtnCode: '1000404', key: 'errors.item.notFound' },
  'item.forbidden': { rtnCode: '1000403', key: 'errors.item.forbidden' },
  'name.invalid': { rtnCode: '1001001', key: 'errors.name.invalid' },
  'name.duplicateFolder': { rtnCode: '1001002', key: 'errors.name.duplicateFolder' },
  'name.duplicateFile': { rtnCode: '1001003', key: 'errors.name.duplicateFile' },
  'upload.tooLarge': { rtnCode: '1002001', key: 'errors.upload.tooLarge' },
  'upload.noSpace': { rtnCode: '1002002', key: 'errors.upload.noSpace' },
  'upload.empty': { rtnCode: '1002003', key: 'errors.upload.empty' },
  'upload.md5Mismatch': { rtnCode: '1002004', key: 'errors.upload.md5Mismatch' },
  'upload.repeated': { rtnCode: '1002005', key: 'errors.upload.repeated' },
  'upload.unsupported': { rtnCode: '1002006', key: 'errors.upload.unsupported' },
  'account.frozen': { rtnCode: '1003001', key: 'errors.account.frozen' },
  'file.frozen': { rtnCode: '1003002', key: 'errors.file.frozen' },
  'move.sameFolder': { rtnCode: '1004001', key: 'errors.move.sameFolder' },
  'move.intoItself': { rtnCode: '1004002', key: 'errors.move.intoItself' },
  'move.duplicate': { rtnCode: '1004003', key: 'errors.move.duplicate' },
  'trash.restoreNoSpace': { rtnCode: '1005001', key: 'errors.trash.restoreNoSpace' },
  'zip.alreadyQueued': { rtnCode: '1006001', key: 'errors.zip.alreadyQueued' },
  'zip.emptyFolder': { rtnCode: '1006002', key: 'errors.zip.emptyFolder' },
  'zip.notReady': { rtnCode: '1006003', key: 'errors.zip.notReady' },
  'download.failed': { rtnCode: '1007001', key: 'errors.download.failed' },
  'drawing.parseFailed': { rtnCode: '1008001', key: 'errors.drawing.parseFailed' },
  'drawing.obtainFailed': { rtnCode: '1008002', key: 'errors.drawing.obtainFailed' },
  'drawing.layoutFailed': { rtnCode: '1008003', key: 'errors.drawing.layoutFailed' },
  'drawing.loadFailed': { rtnCode: '1008004', key: 'errors.drawing.loadFailed' },
  'drawing.overSize': { rtnCode: '1008005', key: 'errors.drawing.overSize' },
  'drawing.noPermission': { rtnCode: '1008006', key: 'errors.drawing.noPermission' },
  'font.unsupported': { rtnCode: '1009001', key: 'errors.font.unsupported' },
  'font.nameRequired': { rtnCode: '1009002', key: 'errors.font.nameRequired' },
  'font.tooMany': { rtnCode: '1009003', key: 'errors.font.tooMany' },
  // rtnCode ranges by area (append inside your range): shares 1010xxx, groups 1011xxx, public library 1012xxx,
  // versions 1013xxx, compare 1014xxx
} as const;

export type ErrorCode = keyof typeof ERRORS;
