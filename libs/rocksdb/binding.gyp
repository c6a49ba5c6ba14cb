{
  'targets': [
    {
      'target_name': 'nest_streams_rocksdb',
      'sources': [
        'native/addon.cc',
        'native/batch.cc',
        'native/cache.cc',
        'native/common.cc',
        'native/database.cc',
        'native/database_async.cc',
        'native/iterator.cc',
        'native/options.cc',
        'native/sst_file_writer.cc',
        'native/write_buffer_manager.cc',
      ],
      'include_dirs': [
        '<!(node -p "require(\'node-api-headers\').include_dir")',
        '<!(node -p "require(\'node-addon-api\').include_dir")',
        '<!@(node scripts/rocksdb-flags.js include_dirs)',
      ],
      'defines': [
        'NAPI_VERSION=8',
        'NAPI_CPP_EXCEPTIONS',
        'NODE_ADDON_API_DISABLE_DEPRECATED',
      ],
      'cflags_cc': ['-fvisibility=hidden', '-Wall', '-Wextra', '-Wno-unused-parameter'],
      'ldflags': ['<!@(node scripts/rocksdb-flags.js ldflags)'],
      'libraries': ['<!@(node scripts/rocksdb-flags.js libraries)'],
      'xcode_settings': {
        'GCC_SYMBOLS_PRIVATE_EXTERN': 'YES',
        'OTHER_CPLUSPLUSFLAGS': ['-fvisibility=hidden'],
      },
    },
  ],
}
