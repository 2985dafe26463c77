// The system's OpenSSL libcrypto (Debian: libssl-dev), through its EVP API (the non-deprecated
// one in OpenSSL 3): SHA-256 for RunnectStore's content hashes, HMAC-SHA-256 for PostgreSQL's
// SCRAM and the server's own tokens. No stable API.
#include <openssl/evp.h>
#include <openssl/crypto.h>
