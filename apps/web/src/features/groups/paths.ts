/** Group page addresses (pure: no browser globals, so the shells and tests import them freely). */

/** Where the group pages live: the desktop shell or the phone layout. */
export function groupsBase(pathname: string): '/yun' | '/webH5' {
  return pathname.startsWith('/webH5') ? '/webH5' : '/yun';
}

/**
 * The same group page in the other layout ('/yun/group/join/x' ↔ '/webH5/group/join/x', with the query), so an
 * invitation link or a group opened on the "wrong" device keeps its place; null for any other page.
 */
export function groupPathIn(layout: '/yun' | '/webH5', pathAndQuery: string): string | null {
  const m = /^\/(yun|webH5)(\/group(?:[/?].*)?)$/.exec(pathAndQuery);
  return m ? `${layout}${m[2]}` : null;
}
