import type { Migration } from 'kysely';
import * as init from './20261123T000000-init.ts';
import * as fonts from './20261123T120000-fonts.ts';
import * as itemsBlobMd5 from './20261123T130000-items-blob-md5.ts';
import * as fileVersions from './20261123T141500-file-versions.ts';
import * as shares from './20261123T140500-shares.ts';
import * as groups from './20261123T141000-groups.ts';
import * as groupShares from './20261123T143500-group-shares.ts';
import * as publicLibrary from './20261123T142500-public-library.ts';
import * as uploadConflict from './20261123T144500-upload-conflict.ts';
import * as drawingPictures from './20261123T150000-drawing-pictures.ts';
import * as thumbnailVariants from './20261125T010000-thumbnail-variants.ts';
import * as itemsUniqueNames from './20261126T030000-items-unique-names.ts';
import * as shareGuards from './20261126T120000-share-guards.ts';
import * as ssoAttempts from './20261127T010000-sso-attempts.ts';
import * as drawingFailures from './20261127T050000-drawing-failures.ts';
import * as uploadReservations from './20261127T050000-upload-reservations.ts';
import * as usersDisabled from './20261127T060000-users-disabled.ts';
import * as fileLocks from './20261127T063000-file-locks.ts';
import * as installationSecrets from './20261127T063500-installation-secrets.ts';
import * as conversions from './20261127T090000-conversions.ts';
import * as unzipTasks from './20261127T110000-unzip-tasks.ts';
import * as model3d from './20261127T120000-model3d.ts';
import * as unzipLanguage from './20261127T163100-unzip-language.ts';
import * as model3dErrorArgs from './20261127T192000-model3d-error-args.ts';
import * as model3dCompanions from './20261127T192000-model3d-companions.ts';
import * as membership from './20261127T193000-membership.ts';
import * as orders from './20261127T230100-orders.ts';
import * as callStyles from './20261127T230600-call-styles.ts';
import * as exchangeCodes from './20261127T230200-exchange-codes.ts';
import * as freeze from './20261127T230300-freeze.ts';
import * as ads from './20261127T230400-ads.ts';
import * as companiesInvoices from './20261127T230800-companies-invoices.ts';
import * as feedback from './20261127T230700-feedback.ts';
import * as model3dMisc from './20261127T230500-model3d-misc.ts';

/** Static map (not a folder scan) so migrations work the same under tsx, bundlers and tests. Append only. */
export const migrations: Record<string, Migration> = {
  '20261123T000000-init': init,
  '20261123T120000-fonts': fonts,
  '20261123T130000-items-blob-md5': itemsBlobMd5,
  '20261123T141500-file-versions': fileVersions,
  '20261123T140500-shares': shares,
  '20261123T141000-groups': groups,
  '20261123T143500-group-shares': groupShares,
  '20261123T142500-public-library': publicLibrary,
  '20261123T144500-upload-conflict': uploadConflict,
  '20261123T150000-drawing-pictures': drawingPictures,
  '20261125T010000-thumbnail-variants': thumbnailVariants,
  '20261126T030000-items-unique-names': itemsUniqueNames,
  '20261126T120000-share-guards': shareGuards,
  '20261127T010000-sso-attempts': ssoAttempts,
  '20261127T050000-drawing-failures': drawingFailures,
  '20261127T050000-upload-reservations': uploadReservations,
  '20261127T060000-users-disabled': usersDisabled,
  '20261127T063000-file-locks': fileLocks,
  '20261127T063500-installation-secrets': installationSecrets,
  '20261127T090000-conversions': conversions,
  '20261127T110000-unzip-tasks': unzipTasks,
  '20261127T120000-model3d': model3d,
  '20261127T163100-unzip-language': unzipLanguage,
  '20261127T192000-model3d-error-args': model3dErrorArgs,
  '20261127T192000-model3d-companions': model3dCompanions,
  '20261127T193000-membership': membership,
  '20261127T230100-orders': orders,
  '20261127T230600-call-styles': callStyles,
  '20261127T230200-exchange-codes': exchangeCodes,
  '20261127T230300-freeze': freeze,
  '20261127T230400-ads': ads,
  '20261127T230800-companies-invoices': companiesInvoices,
  '20261127T230700-feedback': feedback,
  '20261127T230500-model3d-misc': model3dMisc,
};
