// The one C door to OpenSSL's libcrypto: only the digest functions are used (SHA-256 ids,
// S3 payload hashes, the keyed hash that names URL cache records).
#ifndef ARTWORK_CRYPTO_H
#define ARTWORK_CRYPTO_H
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/hmac.h>
#endif
