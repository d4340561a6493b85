import type { ReactNode } from 'react';

/**
 * The operator's contact and declaration texts (Markdown) as React elements: headings (#), lists (- or *),
 * paragraphs, **bold** and [links](url). Built as elements, never as HTML, so whatever the file holds (tags, scripts)
 * shows as text; a link is kept only to http(s), mailto or a path of this site.
 */
const SAFE_HREF = /^(https?:\/\/|mailto:|\/(?!\/))/i;

function inline(text: string, key: string): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  let m: RegExpExecArray | null;
  let n = 0;
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) out.push(<strong key={`${key}-${n++}`}>{m[1]}</strong>);
    else if (SAFE_HREF.test(m[3])) out.push(<a key={`${key}-${n++}`} href={m[3]} rel="noopener noreferrer nofollow" target={m[3].startsWith('/') ? undefined : '_blank'}>{m[2]}</a>);
    else out.push(m[0]);
    last = re.lastIndex;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function renderMarkdown(source: string): ReactNode[] {
  const blocks: ReactNode[] = [];
  let para: string[] = [];
  let list: string[] = [];
  const flush = () => {
    if (para.length) blocks.push(<p key={`p${blocks.length}`}>{inline(para.join('\n'), `p${blocks.length}`)}</p>);
    if (list.length) blocks.push(<ul key={`u${blocks.length}`}>{list.map((li, i) => <li key={i}>{inline(li, `l${blocks.length}-${i}`)}</li>)}</ul>);
    para = [];
    list = [];
  };
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    const h = /^(#{1,4})\s+(.*)$/.exec(line);
    const li = /^\s*[-*]\s+(.*)$/.exec(line);
    if (!line.trim()) flush();
    else if (h) {
      flush();
      const level = Math.min(5, h[1].length + 2);
      const Tag = `h${level}` as 'h3';
      blocks.push(<Tag key={`h${blocks.length}`}>{inline(h[2], `h${blocks.length}`)}</Tag>);
    } else if (li) {
      if (para.length) flush();
      list.push(li[1]);
    } else {
      if (list.length) flush();
      para.push(line);
    }
  }
  flush();
  return blocks;
}
