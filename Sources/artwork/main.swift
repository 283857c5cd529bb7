import ArtworkService

print("artwork: under construction")
