import Testing
import ThumbHashCodec
