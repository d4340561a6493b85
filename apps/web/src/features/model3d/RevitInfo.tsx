import { useEffect, useState } from 'react';
import { Alert, Descriptions, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RevitInfo3D } from '@cadcloud/contracts';
import { filesApi } from '../files/api.ts';
import { thumbUrl } from '../files/thumb.tsx';
import { model3dApi } from './api.ts';

/** A Revit file: its geometry has no open reader (the converter refuses it), so /view3d and the drive open this instead. */
export const isRevit = (name: string) => /\.rvt$/i.test(name);

/**
 * What a Revit .rvt tells without its geometry (revitInfo3D): the preview Revit embedded (the file's thumbnail), the
 * release that saved it, the project's title, client, number and address, its other Project Information parameters,
 * and the advice to export IFC from Revit, in the reader's language.
 */
export function RevitInfoPanel({ fileId, name }: { fileId: string; name: string }) {
  const { t } = useTranslation('model3d');
  const [info, setInfo] = useState<RevitInfo3D | null>(null);
  const [thumbkey, setThumbkey] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    model3dApi.revitInfo(fileId).then(setInfo, (e: Error) => setError(e.message));
    filesApi.getFileInfo(fileId).then((i) => setThumbkey(i.thumbkey || null), () => undefined);
  }, [fileId]);
  if (error) return <Result status="warning" title={name} subTitle={error} data-testid="revit-error" />;
  if (!info) return <Spin style={{ display: 'block', margin: '20vh auto' }} />;
  const named = new Set(['Client Name', 'Project Number', 'Project Address']);
  const rows: Array<[string, string | null]> = [
    [t('model3d.revit.version'), info.version && info.build ? `${info.version} (${info.build})` : info.version],
    [t('model3d.revit.projectTitle'), info.title],
    [t('model3d.revit.clientName'), info.clientName],
    [t('model3d.revit.projectNumber'), info.projectNumber],
    [t('model3d.revit.projectAddress'), info.projectAddress],
    // the other parameters as Revit names them (the user's own custom ones among them)
    ...Object.entries(info.projectParameters).filter(([k]) => !named.has(k)).map(([k, v]): [string, string] => [k, v]),
    [t('model3d.revit.lastSavePath'), info.lastSavePath],
    [t('model3d.revit.centralModelPath'), info.centralModelPath],
    [t('model3d.revit.worksharing'), info.worksharing],
  ];
  return (
    <div style={{ maxWidth: 720, margin: '0 auto', padding: 16 }} data-testid="revit-info">
      <h2 style={{ overflowWrap: 'anywhere', fontSize: 20 }}>{name}</h2>
      <Alert type="info" showIcon message={t('model3d.revit.noGeometry')} description={info.advice} style={{ marginBottom: 16 }} data-testid="revit-advice" />
      {thumbkey ? (
        <img src={thumbUrl(thumbkey)} alt={t('model3d.revit.preview')} data-testid="revit-preview" style={{ display: 'block', maxWidth: '100%', maxHeight: 320, margin: '0 auto 16px', border: '1px solid #f0f0f0' }} />
      ) : (
        <p style={{ color: '#888' }}>{t('model3d.revit.noPreview')}</p>
      )}
      <Descriptions
        bordered
        size="small"
        column={1}
        labelStyle={{ width: '34%', whiteSpace: 'normal' }}
        contentStyle={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}
        items={rows.filter((r): r is [string, string] => !!r[1]).map(([label, value]) => ({ key: label, label, children: value }))}
        data-testid="revit-details"
      />
    </div>
  );
}
