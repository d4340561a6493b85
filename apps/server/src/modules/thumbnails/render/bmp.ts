// The BMP decoder lives in the drawing engine now (its renderers paint BMP pictures of IMAGE entities too).
export { decodeBmp, BmpError, type Rgba } from '@cadcloud/cad';
