// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { renderMarkdown } from './markdown.tsx';

describe('the operator\'s Markdown on /contactus and /declaration', () => {
  it('renders headings, lists, bold and safe links; tags and scripts stay text', () => {
    const { container } = render(<div>{renderMarkdown('# Terms\nIntro with **bold** and [site](https://example.com) and [x](javascript:alert(1)).\n\n- one\n- two\n\n<script>alert(1)</script><img src=x onerror=alert(1)>')}</div>);
    expect(container.querySelector('h3')?.textContent).toBe('Terms');
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    const links = [...container.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.com']);
    expect(container.textContent).toContain('[x](javascript:alert(1))');
    expect([...container.querySelectorAll('li')].map((l) => l.textContent)).toEqual(['one', 'two']);
    expect(container.querySelector('script, img')).toBeNull();
    expect(container.textContent).toContain('<script>alert(1)</script>');
  });
});
