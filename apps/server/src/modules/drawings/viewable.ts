/** Files the viewer opens: DWG-family (dwt templates, dws standards are DWG inside) and DXF. */
export function isViewableName(name: string): boolean {
  return /\.(dwg|dxf|dwt|dws)$/i.test(name);
}
