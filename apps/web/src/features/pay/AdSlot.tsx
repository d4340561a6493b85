import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { payApi, type AdSlot as Ad } from './api.ts';

/**
 * An operator-managed ad slot (`/ad/v5/web/adver`): none by default, and none for members whose rights remove ads —
 * the server decides, this only shows what it answers.
 */
export function AdSlot({ slot }: { slot: string }) {
  const { t } = useTranslation('pay');
  const [ads, setAds] = useState<Ad[]>([]);
  useEffect(() => {
    let live = true;
    payApi.ads(slot).then((r) => live && setAds(r.ads), () => undefined);
    return () => {
      live = false;
    };
  }, [slot]);
  if (!ads.length) return null;
  return (
    <div className="ad-slot" data-testid={`ad-${slot}`}>
      {ads.map((ad) => (
        <a key={ad.linkUrl + ad.imageUrl} href={ad.linkUrl} target="_blank" rel="noopener noreferrer sponsored" title={ad.title}>
          <small className="muted">{t('ad.label')}</small>
          <img src={ad.imageUrl} alt={ad.title} />
        </a>
      ))}
    </div>
  );
}
