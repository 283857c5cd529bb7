/// ThumbHash encoding and decoding (placeholder: the codec lands with its own issue).
public enum ThumbHash {}
