export { formatSize } from '@cadcloud/contracts';

export function formatTime(ms: number, lang: string): string {
  return new Date(ms).toLocaleString(lang === 'zh' ? 'zh-CN' : lang === 'ko' ? 'ko-KR' : lang === 'de' ? 'de-DE' : 'en-GB', { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
}
