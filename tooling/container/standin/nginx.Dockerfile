# A stand-in for the official nginx image where no image registry answers: Debian's nginx, reading
# /etc/nginx/conf.d/*.conf, logging to the container's output, in the foreground.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN apt-get update -q \
 && apt-get install -y -q --no-install-recommends nginx \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb /etc/nginx/sites-enabled/default \
 && ln -sf /dev/stdout /var/log/nginx/access.log \
 && ln -sf /dev/stderr /var/log/nginx/error.log
EXPOSE 80
# SIGQUIT: nginx finishes the requests in flight, then exits.
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
