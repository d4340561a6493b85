import { FileExcelOutlined, FileImageOutlined, FileOutlined, FilePdfOutlined, FileTextOutlined, FileWordOutlined, FileZipOutlined, FolderFilled, FontSizeOutlined, BlockOutlined, BuildOutlined } from '@ant-design/icons';
import { typeGroupOf } from '@cadcloud/contracts';

/** Icon per recognised type (section 9: dwg, dws, dwt, dxf, pdf, images, office, archives, fonts, 3d). */
export function ItemIcon({ type, size = 20 }: { type: string; size?: number }) {
  const style = { fontSize: size };
  if (type === 'folder') return <FolderFilled style={{ ...style, color: '#f7b731' }} />;
  const g = typeGroupOf(type);
  if (g === 'drawing') return <BuildOutlined style={{ ...style, color: '#d4380d' }} />;
  if (g === 'image') return <FileImageOutlined style={{ ...style, color: '#13c2c2' }} />;
  if (g === 'archive') return <FileZipOutlined style={{ ...style, color: '#722ed1' }} />;
  if (g === 'font') return <FontSizeOutlined style={{ ...style, color: '#595959' }} />;
  if (g === 'threeD') return <BlockOutlined style={{ ...style, color: '#1677ff' }} />;
  if (type === 'pdf') return <FilePdfOutlined style={{ ...style, color: '#cf1322' }} />;
  if (type === 'doc' || type === 'docx') return <FileWordOutlined style={{ ...style, color: '#2f54eb' }} />;
  if (type === 'xls' || type === 'xlsx') return <FileExcelOutlined style={{ ...style, color: '#389e0d' }} />;
  if (type === 'txt') return <FileTextOutlined style={style} />;
  return <FileOutlined style={style} />;
}
