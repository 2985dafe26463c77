// The system's OpenSSL libcrypto (Debian: libssl-dev), for RunnectStore's content hashes
// (SHA-256 through the EVP digest API, the non-deprecated one in OpenSSL 3). No stable API.
#include <openssl/evp.h>
