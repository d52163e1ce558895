// `import ImagePipeline` brings in every module of the package: images and errors, codecs,
// the loader, the caches and the processors.
@_exported import ImageCore
@_exported import ImageCodecs
@_exported import ImageLoading
@_exported import ImageCaching
@_exported import ImageProcessing
