/** The largest picture side we make (issue 17: up to 16,000 px a side); its own module so checking it loads no rasteriser. */
export const MAX_PICTURE_SIDE = 16_000;
