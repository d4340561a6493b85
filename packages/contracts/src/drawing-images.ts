import { z } from 'zod';

/**
 * The pictures of IMAGE entities: a drawing names its picture files (its IMAGEDEFs) but does not contain them.
 * The viewer asks for each name the scene lists (`meta.images[].file`); the server looks for the picture in
 * the drawing owner's drive (the drawing's folder first, then anywhere, by base name ignoring case) and answers
 * its bytes, or the JSON envelope with the spec's error.
 */
export const DRAWING_IMAGE_PATH = '/cloud/v5/drawing/image' as const;

/** Picture files an IMAGE may show from the drive (TIFF and BMP are answered as PNG: browsers do not all show them). */
export const DRAWING_PICTURE_TYPES = ['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'tif', 'tiff'] as const;

export const drawingImageQuery = z.object({
  fileId: z.string().min(1).max(64).describe('the drawing'),
  name: z.string().min(1).max(1024).describe("the picture file exactly as the drawing writes it (the scene's meta.images[].file)"),
  layout: z.string().max(255).default('Model').describe('the layout whose scene lists the picture'),
  shareToken: z.string().max(2000).optional().describe('from share extraction, for a share visitor (or header x-share-token)'),
  versionId: z.string().max(64).optional().describe('an earlier version of the drawing (owner only)'),
});
export type DrawingImageQuery = z.input<typeof drawingImageQuery>;
