# Build settings that node-gyp normally reads from Node's own headers tarball (downloaded from
# the Node.js site). This package builds against `node-api-headers` from the npm registry
# instead, so it brings the few settings a Node-API addon needs itself.
#
# NDEBUG is deliberately not defined: RocksDB's headers must be compiled as the system library
# was, and Debian's librocksdb 7.8.3 is built without NDEBUG (it exports the TEST_ hooks that
# only such builds have).
{
  'variables': {
    'node_module_version%': '',
    'node_shared_openssl%': 'false',
    'node_use_openssl%': 'true',
    'node_engine%': 'v8',
    'standalone_static_library%': 0,
  },
  'target_defaults': {
    'default_configuration': 'Release',
    'cflags_cc': ['-std=c++17', '-fexceptions', '-frtti'],
    'xcode_settings': {
      'CLANG_CXX_LANGUAGE_STANDARD': 'c++17',
      'GCC_ENABLE_CPP_EXCEPTIONS': 'YES',
      'GCC_ENABLE_CPP_RTTI': 'YES',
      'MACOSX_DEPLOYMENT_TARGET': '11.0',
    },
    'configurations': {
      'Release': {
        'cflags': ['-O2'],
        'xcode_settings': { 'GCC_OPTIMIZATION_LEVEL': '2' },
      },
      'Debug': {
        'defines': ['DEBUG', '_DEBUG'],
        'cflags': ['-g', '-O0'],
        'xcode_settings': { 'GCC_OPTIMIZATION_LEVEL': '0' },
      },
    },
  },
}
