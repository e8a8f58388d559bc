// Package imagefile keeps the images of model calls on disk, each distinct
// image once, as DIR/images/DIGEST.png (or .jpg): a cassette directory
// keeps those of the requests it recorded, a run directory those of its
// transcripts. A request names its images by digest (llm.Image), so the
// files are what a reader of the request looks up.
//
// [Store] writes an image unless its file is there already, atomically, so
// that several processes recording into one directory never leave half a
// file. [Check] reads a stored image's header and refuses a missing file,
// one whose header is not its type's, or one of another size, with an
// error that names the file. [Open] gives the image back with a Data that
// reads the file.
package imagefile
