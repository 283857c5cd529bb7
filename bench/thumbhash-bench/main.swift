import ThumbHashCodec

print("thumbhash-bench: under construction")
