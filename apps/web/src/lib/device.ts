/** Phones get the /webH5 layout and report client type Web_H5. */
export function isPhone(): boolean {
  const ua = navigator.userAgent;
  return /Android.+Mobile|iPhone|iPod|Windows Phone|Mobile Safari/i.test(ua) || window.innerWidth < 768;
}

export function clientType(): 'Web_PC' | 'Web_H5' {
  return window.location.pathname.startsWith('/webH5') ? 'Web_H5' : 'Web_PC';
}
